package dlproflint.cli;

import dlproflint.cli.config.LintConfig;
import dlproflint.cli.config.Suppression;
import dlproflint.engine.LintEngine;
import dlproflint.engine.RuleLoadException;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.findings.OneLine;
import dlproflint.findings.PackInfo;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What every command that lints shares, set up in the order that makes mistakes cheap: the configuration and the
 * read options first ({@link #prepare}: usage and configuration errors), then the command's own checks (report paths,
 * the baseline file), then the rule packs ({@link #loadRules}: rule errors), all before any profile is read. A
 * {@link LintPlan} then turns the command's profiles into one run: {@link ProfilePlan} for {@code lint}, {@code report},
 * {@code baseline} and {@code compare}, {@link JobPlan} for {@code job}.
 */
final class LintSession {
    final CliEnv env;
    final LintConfig config;
    final RuleOptions rules;
    final ReadOptions readOptions;
    private LintEngine engine;

    private LintSession(CliEnv env, LintConfig config, RuleOptions rules, ReadOptions readOptions) {
        this.env = env;
        this.config = config;
        this.rules = rules;
        this.readOptions = readOptions;
    }

    /** The configuration file and the read options: the usage and configuration errors, before anything is loaded. */
    static LintSession prepare(CliEnv env, LintOptions options) throws Exception {
        LintConfig config = options.rules.loadConfig(env); // a configuration error is named before a usage error
        return new LintSession(env, config, options.rules, options.profile.toReadOptions(env));
    }

    /** The same with read options of the command's own ({@code run}: its {@code --nsys} records the profile). */
    static LintSession prepare(CliEnv env, RuleOptions rules, ReadOptions readOptions) throws Exception {
        return new LintSession(env, rules.loadConfig(env), rules, readOptions);
    }

    /**
     * Every file a run over these profiles reads: the profiles, the configuration file and the files of the site rule
     * packs (the command adds its baseline). None of them may be a report target ({@link OutputChecks}).
     */
    ReadFiles reads(List<Path> profiles) throws CliException {
        return ReadFiles.of(profiles, config, rules.ruleDirs(env, config));
    }

    /** Loads the rule packs (rule errors end the command here, before any profile is read). */
    LintSession loadRules() throws Exception {
        engine = rules.loadEngine(env, config);
        return this;
    }

    /** Only the rules of one pack run (compare judges regressions, not the head's own problems). */
    LintSession onlyPack(String packId) throws RuleLoadException {
        Set<String> off = new HashSet<>(engine.config().disabledPacks());
        for (PackInfo p : engine.packs()) if (!p.id().equals(packId)) off.add(p.id());
        engine = engine.withConfig(engine.config().withDisabledPacks(off));
        return this;
    }

    /** The engine, or null when the command wants facts only ({@link #loadRules} was not called). */
    LintEngine engine() {
        return engine;
    }

    /** How this session reads and lints one profile. */
    ProfileRead profileRead() {
        return new ProfileRead(ProfileReaders.discover(), engine, readOptions, RepoRoot.find(env.cwd()));
    }

    /** The configuration's suppressions (expired ones named on stderr) and the baseline. */
    FindingFilter filter(Baseline baseline) {
        LocalDate today = env.today().get();
        for (Suppression s : config.suppressions()) {
            if (s.expiredOn(today)) {
                env.err().println("dlprof-lint: warning: " + config.source().getFileName() + ": suppression of "
                        + s.rule() + " for '" + s.subject() + "' expired on " + s.expires() + " and no longer applies");
            }
        }
        return new FindingFilter(config.suppressions(), baseline, today);
    }

    /** An input that could not be read, as one line on standard error. */
    void unreadable(String given, String why) {
        env.err().println("dlprof-lint: " + OneLine.of(given + ": " + why));
    }

    /** How another machine reads and lints a rank exactly as this session does. */
    RankSpec rankSpec() {
        try {
            return RankSpec.of(readOptions, rules.runConfig(config), rules.ruleDirs(env, config));
        } catch (CliException e) {
            throw new IllegalStateException(e); // the folders were checked when the engine loaded
        }
    }
}
