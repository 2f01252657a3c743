package dlproflint.cli.config;

import dlproflint.engine.Budget;
import dlproflint.engine.RunConfig;
import dlproflint.findings.Severity;
import dlproflint.findings.SeverityThresholds;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The effective configuration of a run, from {@code .dlprof-lint.yml} (or none).
 *
 * @param source       the file it was read from, or null when no file was used
 * @param ruleDirs     user pack directories, resolved against the file's folder
 * @param sarifAnchor  repository-relative anchor file for SARIF results, or null
 * @param severityThresholds how severity follows from impact for every rule without its own
 * @param ruleThresholds     rule id → its own thresholds
 * @param budgets            bounds on key metrics ({@code budgets:})
 */
public record LintConfig(Path source, Set<String> enable, Set<String> disable,
                         Map<String, Severity> severityOverrides, Map<String, Map<String, Object>> params,
                         Map<String, String> packVersions, Set<String> disabledPacks, List<Path> ruleDirs,
                         List<Suppression> suppressions, String sarifAnchor, SeverityThresholds severityThresholds,
                         Map<String, SeverityThresholds> ruleThresholds, List<Budget> budgets) {

    public static final LintConfig NONE = new LintConfig(null, Set.of(), Set.of(), Map.of(), Map.of(), Map.of(),
            Set.of(), List.of(), List.of(), null, SeverityThresholds.DEFAULT, Map.of(), List.of());

    public LintConfig {
        enable = Set.copyOf(enable);
        disable = Set.copyOf(disable);
        severityOverrides = Map.copyOf(severityOverrides);
        params = Map.copyOf(params);
        packVersions = Map.copyOf(packVersions);
        disabledPacks = Set.copyOf(disabledPacks);
        ruleDirs = List.copyOf(ruleDirs);
        suppressions = List.copyOf(suppressions);
        severityThresholds = severityThresholds == null ? SeverityThresholds.DEFAULT : severityThresholds;
        ruleThresholds = ruleThresholds == null ? Map.of() : Map.copyOf(ruleThresholds);
        budgets = budgets == null ? List.of() : List.copyOf(budgets);
    }

    /** The engine's view, with the command line's {@code --enable}/{@code --disable} added. */
    public RunConfig toRunConfig(List<String> extraEnable, List<String> extraDisable) {
        Set<String> en = new LinkedHashSet<>(enable);
        en.addAll(extraEnable);
        Set<String> dis = new LinkedHashSet<>(disable);
        dis.addAll(extraDisable);
        // --enable on the command line wins over a disable in the file: the user asked for it now.
        dis.removeAll(extraEnable);
        return new RunConfig(en, dis, severityOverrides, new LinkedHashMap<>(params), packVersions, disabledPacks,
                severityThresholds, ruleThresholds, budgets);
    }
}
