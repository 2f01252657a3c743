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
import dlproflint.job.FindingFolder;
import dlproflint.job.JobReducer;
import dlproflint.job.JobRoster;
import dlproflint.findings.ProfileResult;
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
final class LintSession implements AutoCloseable {
    private final CliEnv env;
    final LintConfig config;
    LintEngine engine;
    private final ReadOptions readOptions;
    private final ProfileInputs inputs;
    private List<ProfileInputs.Input> opened = List.of();
    private final RuleOptions rules;
    /** a job's profiles as given (its ranks), or null for a session over profiles */
    private final List<String> ranks;

    private LintSession(CliEnv env, LintConfig config, LintEngine engine, ReadOptions readOptions, ProfileInputs inputs,
                        RuleOptions rules, List<String> ranks) {
        this.env = env;
        this.config = config;
        this.engine = engine;
        this.readOptions = readOptions;
        this.inputs = inputs;
        this.rules = rules;
        this.ranks = ranks;
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
     * @param beforeEngine checks that must run before rule packs are compiled (report paths, baseline file); it
     *                     gets every file the run reads (a folder's files, the configuration, the rule packs)
     */
    static LintSession open(CliEnv env, List<String> profiles, RuleOptions rules, ProfileOptions profileOptions,
                            boolean lint, Check beforeEngine) throws Exception {
        return open(env, ProfileInputs.of(env, profiles, true), rules, profileOptions, lint, beforeEngine);
    }

    static LintSession open(CliEnv env, ProfileInputs inputs, RuleOptions rules, ProfileOptions profileOptions,
                            boolean lint, Check beforeEngine) throws Exception {
        LintConfig config = rules.loadConfig(env);
        ReadOptions readOptions = profileOptions.toReadOptions(env);
        beforeEngine.run(config, ReadFiles.of(inputs.candidatePaths(), config, rules.ruleDirs(env, config)));
        inputs.check();
        LintEngine engine = lint ? rules.loadEngine(env, config) : null;
        return new LintSession(env, config, engine, readOptions, inputs, rules, null);
    }

    /**
     * A session over the ranks of a distributed job, already expanded ({@link JobBackend#expand}): a rank file that is
     * missing or unreadable does not stop the job (it is reported with the others), so inputs are not checked up front.
     */
    static LintSession openJob(CliEnv env, List<String> profiles, RuleOptions rules, ProfileOptions profileOptions,
                               Check beforeEngine) throws Exception {
        LintConfig config = rules.loadConfig(env);
        ReadOptions readOptions = profileOptions.toReadOptions(env);
        List<Path> paths = new ArrayList<>();
        for (String p : profiles) paths.add(env.resolve(p));
        beforeEngine.run(config, ReadFiles.of(paths, config, rules.ruleDirs(env, config)));
        LintEngine engine = rules.loadEngine(env, config);
        return new LintSession(env, config, engine, readOptions, null, rules, List.copyOf(profiles));
    }

    /** Only the rules of one pack run (compare judges regressions, not the head's own problems). */
    void onlyPack(String packId) throws dlproflint.engine.RuleLoadException {
        dlproflint.engine.RunConfig c = engine.config();
        java.util.Set<String> off = new java.util.HashSet<>(c.disabledPacks());
        for (dlproflint.findings.PackInfo p : engine.packs()) if (!p.id().equals(packId)) off.add(p.id());
        engine = engine.withConfig(new dlproflint.engine.RunConfig(c.enable(), c.disable(), c.severityOverrides(),
                c.params(), c.packVersions(), off));
    }

    ReadOptions readOptions() {
        return readOptions;
    }

    /** The profiles the last {@link #run} read (standard input spooled, folders expanded), in report order. */
    List<ProfileInputs.Input> inputs() {
        return opened;
    }

    @FunctionalInterface
    interface Check {
        /** @param reads every file the run will read (profiles, configuration, rule packs): none may be an output */
        void run(LintConfig config, ReadFiles reads) throws Exception;
    }

    /**
     * Extracts and lints every profile; on unreadable profiles prints one line each and returns null
     * (the caller exits 3).
     */
    LintRun run(Baseline baseline, int jobs) throws InterruptedException, CliException {
        return run(baseline, jobs, null);
    }

    /**
     * The same for commands that compare or join profiles: every profile is read first, {@code joiner} makes the
     * facts to lint from them (in the order given), and those are linted and filtered.
     */
    LintRun run(Baseline baseline, int jobs, ProfileLinter.Joiner joiner) throws InterruptedException, CliException {
        FindingFilter filter = filter(baseline);
        ProfileReaders readers = ProfileReaders.discover();
        opened = inputs.open(readers);
        ProfileLinter linter = new ProfileLinter(readers, engine, readOptions, filter,
                new Progress(env), jobs > 0 ? jobs : ProfileLinter.defaultJobs(opened.size()));
        List<ProfileLinter.Outcome> outcomes = joiner == null ? linter.lintAll(opened) : linter.lintJoined(opened, joiner);
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
     * Reads every rank of the job through {@code backend} (each rank linted by the profile-scope packs and reduced to
     * its summary where it is read), then on this machine: identifies the ranks, computes the cross-rank facts,
     * runs the job-scope packs once, folds the ranks' findings, applies suppressions and the baseline. Prints one
     * line per unreadable profile and returns null when no rank could be read (the caller exits 3).
     */
    JobRun runJob(JobBackend backend, Baseline baseline, int jobs) throws InterruptedException, java.io.IOException {
        FindingFilter filter = filter(baseline);
        long t0 = System.nanoTime();
        RankReader local = new RankReader(ProfileReaders.discover(), engine, readOptions);
        List<JobRoster.Read> reads = backend.readAll(ranks, this::rankSpec, local, jobs);
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

    /** Removes the spooled copy of standard input. */
    @Override
    public void close() {
        if (inputs != null) inputs.close();
    }
}
