package dlproflint.cli;

import dlproflint.cli.config.LintConfig;
import dlproflint.cli.config.Suppression;
import dlproflint.engine.LintEngine;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.extract.InputFiles;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * The one lint pipeline every command goes through ({@code lint}, {@code report}, {@code baseline}, and the
 * commands that compare or join profiles): profile → facts → rule engine → findings with the configuration's
 * suppressions and the baseline applied. Steps run in the order that makes mistakes cheap: every usage,
 * configuration and rule check first, then the (possibly long) extraction of all profiles.
 */
final class LintSession {
    private final CliEnv env;
    final LintConfig config;
    final LintEngine engine;
    private final ReadOptions readOptions;
    private final List<String> given;
    final List<Path> inputs;

    private LintSession(CliEnv env, LintConfig config, LintEngine engine, ReadOptions readOptions,
                        List<String> given, List<Path> inputs) {
        this.env = env;
        this.config = config;
        this.engine = engine;
        this.readOptions = readOptions;
        this.given = given;
        this.inputs = inputs;
    }

    /** Inputs as given and resolved against the working directory. */
    static List<Path> resolve(CliEnv env, List<String> profiles) {
        List<Path> paths = new ArrayList<>();
        for (String p : profiles) paths.add(env.resolve(p));
        return paths;
    }

    /**
     * @param beforeEngine checks that must run before rule packs are compiled (report paths, baseline file)
     */
    static LintSession open(CliEnv env, List<String> profiles, RuleOptions rules, ProfileOptions profileOptions,
                            Check beforeEngine) throws Exception {
        return open(env, profiles, rules, profileOptions, true, beforeEngine);
    }

    /**
     * @param lint         false when the caller needs the facts only (no finding is wanted, so no rule pack is loaded)
     * @param beforeEngine checks that must run before rule packs are compiled (report paths, baseline file)
     */
    static LintSession open(CliEnv env, List<String> profiles, RuleOptions rules, ProfileOptions profileOptions,
                            boolean lint, Check beforeEngine) throws Exception {
        LintConfig config = rules.loadConfig(env);
        ReadOptions readOptions = profileOptions.toReadOptions(env);
        List<Path> inputs = resolve(env, profiles);
        beforeEngine.run(config, inputs);
        checkInputsExist(profiles, inputs);
        LintEngine engine = lint ? rules.loadEngine(env, config) : null;
        return new LintSession(env, config, engine, readOptions, profiles, inputs);
    }

    ReadOptions readOptions() {
        return readOptions;
    }

    /**
     * A mistyped path should not wait for the rule packs to compile: only the file's existence and type
     * are checked here (no profile content is read before the rules are known to load; a FIFO or a
     * device is refused before anything opens it).
     */
    private static void checkInputsExist(List<String> given, List<Path> inputs) throws CliException {
        for (int i = 0; i < inputs.size(); i++) {
            String problem = InputFiles.problem(inputs.get(i), "profile");
            if (problem != null) throw new CliException(ExitCodes.PROFILE, given.get(i) + ": " + problem);
        }
    }

    @FunctionalInterface
    interface Check {
        void run(LintConfig config, List<Path> inputs) throws Exception;
    }

    /**
     * Extracts and lints every profile; on unreadable profiles prints one line each and returns null
     * (the caller exits 3).
     */
    LintRun run(Baseline baseline, int jobs) throws InterruptedException {
        LocalDate today = env.today().get();
        for (Suppression s : config.suppressions()) {
            if (s.expiredOn(today)) {
                env.err().println("dlprof-lint: warning: " + config.source().getFileName() + ": suppression of "
                        + s.rule() + " for '" + s.subject() + "' expired on " + s.expires() + " and no longer applies");
            }
        }
        FindingFilter filter = new FindingFilter(config.suppressions(), baseline, today);
        ProfileLinter linter = new ProfileLinter(ProfileReaders.discover(), engine, readOptions, filter,
                new Progress(env), jobs > 0 ? jobs : ProfileLinter.defaultJobs(inputs.size()));
        List<ProfileLinter.Outcome> outcomes = linter.lintAll(given, inputs);
        boolean failed = false;
        List<ProfileResult> results = new ArrayList<>();
        for (ProfileLinter.Outcome o : outcomes) {
            if (o.error() != null) {
                failed = true;
                env.err().println("dlprof-lint: " + Main.oneLine(o.given() + ": " + o.error().getMessage()));
            } else {
                results.add(o.result());
            }
        }
        if (failed) return null;
        return engine == null ? new LintRun(ToolVersion.get(), List.of(), List.of(), results)
                : new LintRun(ToolVersion.get(), engine.packs(), engine.rules(), results);
    }
}
