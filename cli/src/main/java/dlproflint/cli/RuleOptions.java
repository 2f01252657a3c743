package dlproflint.cli;

import dlproflint.cli.config.ConfigException;
import dlproflint.cli.config.ConfigLoader;
import dlproflint.cli.config.LintConfig;
import dlproflint.engine.EngineOptions;
import dlproflint.engine.LintEngine;
import dlproflint.engine.RuleLoadException;
import dlproflint.findings.RuleMetadata;
import dlproflint.engine.RunConfig;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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

    @Option(names = "--rule-timeout", paramLabel = "SECONDS",
            description = "Time limit for the rules on one profile (default: 120; 0 = none). A rule that overruns "
                    + "(an update or busy loop) fails the run with exit 2, naming the rule.")
    Double ruleTimeout;

    LintConfig loadConfig(CliEnv env) throws ConfigException, CliException {
        if (config != null && noConfig) throw CliException.usage("--config and --no-config cannot be used together");
        if (noConfig) return LintConfig.NONE;
        if (config != null) return ConfigLoader.load(env.resolve(config));
        Optional<Path> found = ConfigLoader.discover(env.cwd());
        return found.isPresent() ? ConfigLoader.loadFound(found.get()) : LintConfig.NONE;
    }

    /**
     * Loads the packs before any profile is read, so rule errors fail fast (exit 2). Packs are compiled
     * once with the load-time settings (pins, disabled packs); rule selection, severities and
     * parameters are then applied without recompiling, after their ids were checked here so a typo
     * names where it came from (the command line or a line of the configuration file).
     */
    LintEngine loadEngine(CliEnv env, LintConfig cfg) throws RuleLoadException, CliException, ConfigException {
        return loadEngine(env, cfg, false);
    }

    /**
     * The packs' catalogue only ({@code rules list}, {@code explain}, {@code docs}): checked like any load, but a pack
     * never compiled before is read from its parsed DRL, so no rule code runs.
     */
    LintEngine loadCatalog(CliEnv env, LintConfig cfg) throws RuleLoadException, CliException, ConfigException {
        return loadEngine(env, cfg, true);
    }

    private LintEngine loadEngine(CliEnv env, LintConfig cfg, boolean catalogOnly) throws RuleLoadException, CliException, ConfigException {
        List<Path> dirs = ruleDirs(env, cfg);
        RunConfig full = runConfig(cfg);
        LintEngine engine;
        try {
            engine = load(dirs, full, ruleTimeLimit(), catalogOnly);
        } catch (RuleLoadException e) {
            throw fromConfiguration(e, cfg);
        }
        checkRuleIds(engine, cfg);
        try {
            return engine.withConfig(full).withRuleTimeLimit(ruleTimeLimit());
        } catch (RuleLoadException e) {
            throw fromConfiguration(e, cfg);
        }
    }

    /** Rule packs compiled with the load-time settings only (pins, disabled packs); the rest is applied per run. */
    static LintEngine load(List<Path> dirs, RunConfig full) throws RuleLoadException {
        return load(dirs, full, LintEngine.DEFAULT_RULE_TIME_LIMIT, false);
    }

    /** @param codeLimit how long a site pack's code may run while its rule base is built (the rule time limit) */
    static LintEngine load(List<Path> dirs, RunConfig full, Duration codeLimit, boolean catalogOnly) throws RuleLoadException {
        EngineOptions options = new EngineOptions(true, dirs, full.loadTime(), EngineOptions.defaultCacheDir()).withCodeTimeLimit(codeLimit);
        return LintEngine.load(catalogOnly ? options.withCatalogOnly() : options);
    }

    /** The site pack folders: the configuration's, then {@code --rules}. */
    List<Path> ruleDirs(CliEnv env, LintConfig cfg) throws CliException {
        List<Path> dirs = new ArrayList<>(cfg.ruleDirs());
        for (String d : ruleDirs) {
            Path p = env.resolve(d);
            if (!Files.isDirectory(p)) throw CliException.usage(d + ": --rules needs a folder of rule packs");
            dirs.add(p);
        }
        return dirs;
    }

    /** Rule selection, severities, parameters and pins of this run: the configuration's, with the command line's on top. */
    RunConfig runConfig(LintConfig cfg) {
        return cfg.toRunConfig(enable, disable);
    }

    private Duration ruleTimeLimit() throws CliException {
        if (ruleTimeout == null) return LintEngine.DEFAULT_RULE_TIME_LIMIT;
        return Durations.seconds(ruleTimeout, "--rule-timeout");
    }

    /** The engine names configuration problems "configuration"; say which file and line instead. */
    private static RuleLoadException fromConfiguration(RuleLoadException e, LintConfig cfg) throws ConfigException {
        if (!"configuration".equals(e.file()) || cfg.source() == null) return e;
        String msg = e.getMessage().startsWith("configuration: ") ? e.getMessage().substring("configuration: ".length()) : e.getMessage();
        java.util.regex.Matcher quoted = java.util.regex.Pattern.compile("'([^']+)'").matcher(msg);
        int line = quoted.find() ? ConfigLoader.lineMentioning(cfg.source(), quoted.group(1)) : 0;
        throw new ConfigException(cfg.source(), line, msg);
    }

    private void checkRuleIds(LintEngine engine, LintConfig cfg) throws CliException, ConfigException {
        Set<String> known = new LinkedHashSet<>();
        for (RuleMetadata m : engine.rules()) known.add(m.id());
        for (String id : concat(enable, disable)) {
            if (!known.contains(id)) {
                throw CliException.usage("unknown rule id '" + id + "' (see 'dlprof-lint rules list')");
            }
        }
        if (cfg.source() == null) return;
        RunConfig r = cfg.rules();
        Set<String> configured = new LinkedHashSet<>(r.enable());
        configured.addAll(r.disable());
        configured.addAll(r.severityOverrides().keySet());
        configured.addAll(r.ruleThresholds().keySet());
        configured.addAll(r.params().keySet());
        for (String id : configured) {
            String pack = id.contains("/") ? id.substring(0, id.indexOf('/')) : "";
            if (!known.contains(id) && !r.disabledPacks().contains(pack)) {
                throw new ConfigException(cfg.source(), ConfigLoader.lineMentioning(cfg.source(), id),
                        "unknown rule id '" + id + "' (see 'dlprof-lint rules list')");
            }
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
