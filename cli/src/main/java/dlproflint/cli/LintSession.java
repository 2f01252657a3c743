package dlproflint.cli;

import dlproflint.cli.config.LintConfig;
import dlproflint.cli.config.Suppression;
import dlproflint.engine.LintEngine;
import dlproflint.facts.JobFacts;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.findings.Finding;
import dlproflint.findings.JobResult;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.job.FindingFolder;
import dlproflint.job.JobReducer;
import dlproflint.job.JobRoster;
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
    private final RuleOptions rules;

    private LintSession(CliEnv env, LintConfig config, LintEngine engine, ReadOptions readOptions,
                        List<String> given, List<Path> inputs, RuleOptions rules) {
        this.env = env;
        this.config = config;
        this.engine = engine;
        this.readOptions = readOptions;
        this.given = given;
        this.inputs = inputs;
        this.rules = rules;
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
        return open(env, profiles, rules, profileOptions, lint, true, beforeEngine);
    }

    /**
     * A session over the ranks of a distributed job: a rank file that is missing or unreadable does not stop the
     * job (it is reported with the others), so inputs are not checked up front.
     */
    static LintSession openJob(CliEnv env, List<String> profiles, RuleOptions rules, ProfileOptions profileOptions,
                               Check beforeEngine) throws Exception {
        return open(env, profiles, rules, profileOptions, true, false, beforeEngine);
    }

    private static LintSession open(CliEnv env, List<String> profiles, RuleOptions rules, ProfileOptions profileOptions,
                                    boolean lint, boolean inputsMustExist, Check beforeEngine) throws Exception {
        LintConfig config = rules.loadConfig(env);
        ReadOptions readOptions = profileOptions.toReadOptions(env);
        List<Path> inputs = resolve(env, profiles);
        beforeEngine.run(config, inputs);
        if (inputsMustExist) checkInputsExist(profiles, inputs);
        LintEngine engine = lint ? rules.loadEngine(env, config) : null;
        return new LintSession(env, config, engine, readOptions, profiles, inputs, rules);
    }

    ReadOptions readOptions() {
        return readOptions;
    }

    /**
     * A mistyped path should not wait for the rule packs to compile: only existence is checked here
     * (no profile content is read before the rules are known to load).
     */
    private static void checkInputsExist(List<String> given, List<Path> inputs) throws CliException {
        for (int i = 0; i < inputs.size(); i++) {
            Path p = inputs.get(i);
            String problem = !java.nio.file.Files.exists(p) ? "no such file"
                    : java.nio.file.Files.isDirectory(p) ? "is a directory, not a profile"
                    : !java.nio.file.Files.isReadable(p) ? "permission denied" : null;
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
        FindingFilter filter = filter(baseline);
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

    /** The configuration's suppressions (expired ones named on stderr) and the baseline. */
    private FindingFilter filter(Baseline baseline) {
        LocalDate today = env.today().get();
        for (Suppression s : config.suppressions()) {
            if (s.expiredOn(today)) {
                env.err().println("dlprof-lint: warning: " + config.source().getFileName() + ": suppression of "
                        + s.rule() + " for '" + s.subject() + "' expired on " + s.expires() + " and no longer applies");
            }
        }
        return new FindingFilter(config.suppressions(), baseline, today);
    }

    /**
     * Reads every rank of a job through {@code backend} (each rank linted by the profile-scope packs and reduced to
     * its summary where it is read), then on this machine: identifies the ranks, computes the cross-rank facts,
     * runs the job-scope packs once, folds the ranks' findings, applies suppressions and the baseline. Prints one
     * line per unreadable profile and returns null when no rank could be read (the caller exits 3).
     */
    JobRun runJob(JobBackend backend, Baseline baseline, int jobs) throws InterruptedException, java.io.IOException {
        FindingFilter filter = filter(baseline);
        long t0 = System.nanoTime();
        RankReader local = new RankReader(ProfileReaders.discover(), engine, readOptions);
        List<JobRoster.Read> reads = backend.readAll(given, this::rankSpec, local, jobs);
        long readNs = System.nanoTime() - t0;
        for (JobRoster.Read r : reads) {
            if (r.summary() == null) env.err().println("dlprof-lint: " + Main.oneLine(r.profile() + ": " + r.error()));
        }
        if (reads.stream().allMatch(r -> r.summary() == null)) return null;
        JobRoster roster = JobRoster.of(reads);
        String label = JobLabel.of(roster.inputs());
        JobFacts facts = JobReducer.reduce(label, roster);
        List<Finding> raw = new ArrayList<>(engine.lintJob(facts, label));
        raw.addAll(FindingFolder.fold(roster.ranks(), roster.ranks().size()));
        ProfileFacts.Builder job = ProfileFacts.builder().profile(new ProfileInfo(label, "job", null, null, 0, 0));
        ProfileResult result = filter.apply(job.build(), raw);
        LintRun run = new LintRun(ToolVersion.get(), engine.packs(), engine.rules(), List.of(result),
                new JobResult(facts, roster.ranks().size()));
        return new JobRun(run, reads.size(), readNs, backend.parallelism());
    }

    /** A job's run and how long reading its ranks took. */
    record JobRun(LintRun run, int profiles, long readNs, int parallelism) {
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
