package dlproflint.cli.config;

import dlproflint.engine.RunConfig;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The effective configuration of a run, from {@code .dlprof-lint.yml} (or none): the engine's {@link RunConfig} (rule
 * selection, severities, parameters, pins, disabled packs, thresholds, budgets) and what only the command line tool
 * uses.
 *
 * @param source       the file it was read from, or null when no file was used
 * @param rules        what the engine applies: read from the file, nothing copied field by field
 * @param ruleDirs     user pack directories, resolved against the file's folder
 * @param suppressions findings to hide, with their reasons and expiry dates
 * @param sarifAnchor  repository-relative anchor file for SARIF results, or null
 */
public record LintConfig(Path source, RunConfig rules, List<Path> ruleDirs, List<Suppression> suppressions, String sarifAnchor) {

    public static final LintConfig NONE = new LintConfig(null, RunConfig.DEFAULT, List.of(), List.of(), null);

    public LintConfig {
        rules = rules == null ? RunConfig.DEFAULT : rules;
        ruleDirs = List.copyOf(ruleDirs);
        suppressions = List.copyOf(suppressions);
    }

    /** The engine's view, with the command line's {@code --enable}/{@code --disable} added. */
    public RunConfig toRunConfig(List<String> extraEnable, List<String> extraDisable) {
        Set<String> en = new LinkedHashSet<>(rules.enable());
        en.addAll(extraEnable);
        Set<String> dis = new LinkedHashSet<>(rules.disable());
        dis.addAll(extraDisable);
        // --enable on the command line wins over a disable in the file: the user asked for it now.
        dis.removeAll(extraEnable);
        return rules.withSelection(en, dis);
    }
}
