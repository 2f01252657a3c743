package dlproflint.cli;

import dlproflint.cli.config.ConfigException;
import dlproflint.cli.config.ConfigLoader;
import dlproflint.cli.config.LintConfig;
import dlproflint.engine.EngineOptions;
import dlproflint.engine.LintEngine;
import dlproflint.engine.RuleLoadException;
import dlproflint.engine.RuleMetadata;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Which rules run: packs from the class path and {@code --rules} folders, the configuration file, enable/disable. */
final class RuleOptions {
    @Option(names = "--rules", paramLabel = "DIR", description = "Also load the rule packs in DIR (repeatable).")
    List<String> ruleDirs = new ArrayList<>();

    @Option(names = "--config", paramLabel = "FILE",
            description = "Configuration file (default: .dlprof-lint.yml found walking up to the repository root).")
    String config;

    @Option(names = "--no-config", description = "Ignore configuration files.")
    boolean noConfig;

    @Option(names = "--enable", split = ",", paramLabel = "ID", description = "Run only these rules (repeatable, comma-separated).")
    List<String> enable = new ArrayList<>();

    @Option(names = "--disable", split = ",", paramLabel = "ID", description = "Do not run these rules (repeatable, comma-separated).")
    List<String> disable = new ArrayList<>();

    LintConfig loadConfig(CliEnv env) throws ConfigException, CliException {
        if (config != null && noConfig) throw CliException.usage("--config and --no-config cannot be used together");
        if (noConfig) return LintConfig.NONE;
        if (config != null) return ConfigLoader.load(env.resolve(config));
        Optional<Path> found = ConfigLoader.discover(env.cwd());
        return found.isPresent() ? ConfigLoader.load(found.get()) : LintConfig.NONE;
    }

    /** Loads the packs before any profile is read, so rule errors fail fast (exit 2). */
    LintEngine loadEngine(CliEnv env, LintConfig cfg) throws RuleLoadException, CliException {
        List<Path> dirs = new ArrayList<>(cfg.ruleDirs());
        for (String d : ruleDirs) {
            Path p = env.resolve(d);
            if (!Files.isDirectory(p)) throw CliException.usage(d + ": --rules needs a folder of rule packs");
            dirs.add(p);
        }
        LintEngine engine = LintEngine.load(new EngineOptions(true, dirs, cfg.toRunConfig(enable, disable), null));
        checkRuleIds(engine, env, cfg);
        return engine;
    }

    /** A misspelt id on the command line is an error; in the configuration a warning (a pack may be off). */
    private void checkRuleIds(LintEngine engine, CliEnv env, LintConfig cfg) throws CliException {
        Set<String> known = new LinkedHashSet<>();
        for (RuleMetadata m : engine.rules()) known.add(m.id());
        for (String id : concat(enable, disable)) {
            if (!known.contains(id)) {
                throw CliException.usage("unknown rule id '" + id + "' (see 'dlprof-lint rules list')");
            }
        }
        if (cfg.source() == null) return;
        Set<String> configured = new LinkedHashSet<>(cfg.enable());
        configured.addAll(cfg.disable());
        configured.addAll(cfg.severityOverrides().keySet());
        configured.addAll(cfg.params().keySet());
        for (String id : configured) {
            if (!known.contains(id)) {
                env.err().println("dlprof-lint: warning: " + cfg.source().getFileName() + ": unknown rule id '" + id + "'");
            }
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
