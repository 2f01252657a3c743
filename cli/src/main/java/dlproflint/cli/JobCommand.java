package dlproflint.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code dlprof-lint job PATH...}: the per-rank profiles of one distributed job, linted together. Each rank is
 * read, linted and reduced to a compact summary (in parallel, {@code --jobs}); the ranks are identified and their
 * steps aligned by number; the cross-rank facts are computed and the job-scope packs run once; the ranks' own
 * findings are folded into one finding per rule and subject. One report for the whole job.
 */
@Command(name = "job", mixinStandardHelpOptions = true, versionProvider = RootCommand.Version.class, sortOptions = false,
        description = {"Lint the per-rank profiles of one distributed training job together: stragglers, exposed",
                "communication, imbalance between ranks, missing ranks, and each rank's findings folded over the ranks."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  dlprof-lint job traces/",
                "  dlprof-lint job 'traces/rank-*.json.gz' --report html=job.html --report json=job.json",
                "  dlprof-lint job rank0.sqlite rank1.sqlite rank2.sqlite rank3.sqlite --fail-on warning",
                "",
                "Ranks are identified from the profiles (distributedInfo, NCCL communicator metadata, the process",
                "environment), else from their file names (rank-3, rank_3, worker3), else by position; the report says which.",
                "Unreadable, duplicate and other-job profiles are left out and named.",
                "",
                "Exit codes: 0 no finding at or above --fail-on, 1 findings at or above it,",
                "2 usage, configuration or rule error, 3 no profile of the job could be read, 70 internal error."})
final class JobCommand implements Callable<Integer> {
    private final CliEnv env;
    private final JobBackend backend;

    @Parameters(arity = "1..*", paramLabel = "PATH",
            description = "The job's profiles: files, folders (searched recursively) or globs (quote them), one profile per rank.")
    List<String> paths = new ArrayList<>();

    @Option(names = "--baseline", paramLabel = "FILE", description = "Hide the known findings listed in FILE (see 'baseline').")
    String baseline;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", description = "Ranks read in parallel (default: up to 4).")
    int jobs;

    @Mixin
    ReportOutputs outputs = new ReportOutputs();
    @Mixin
    RuleOptions rules = new RuleOptions();
    @Mixin
    ProfileOptions profileOptions = new ProfileOptions();
    @Mixin
    CommonOptions common = new CommonOptions();

    JobCommand(CliEnv env, JobBackend backend) {
        this.env = env;
        this.backend = backend;
    }

    @Override
    public Integer call() throws Exception {
        if (jobs < 0) throw CliException.usage("--jobs must be 1 or more");
        List<String> profiles = backend.expand(env, paths);
        Baseline[] known = new Baseline[1];
        try (LintSession session = LintSession.openJob(env, profiles, rules, profileOptions, (config, reads) -> {
            outputs.check(env, reads.withBaseline(baseline == null ? null : env.resolve(baseline)), backend);
            if (baseline != null) known[0] = Baseline.read(env.resolve(baseline));
        })) {
            LintSession.JobRun job = session.runJob(backend, known[0], jobs);
            if (job == null) {
                env.err().println("dlprof-lint: no profile of the job could be read (" + profiles.size() + " given)");
                return ExitCodes.PROFILE;
            }
            env.err().println("dlprof-lint: " + timing(job));
            int code = outputs.write(env, job.run(), session.config, backend);
            if (known[0] != null) ReportOutputs.reportStale(env, known[0], baseline, job.run());
            return code;
        }
    }

    /** {@code read 64 profiles in 12.3 s: 192 ms per rank, 2 at a time}. */
    static String timing(LintSession.JobRun job) {
        return String.format(Locale.ROOT, "read %d %s in %.1f s: %.0f ms per rank, %d at a time", job.profiles(),
                job.profiles() == 1 ? "profile" : "profiles", job.readNs() / 1e9,
                job.readNs() / 1e6 / Math.max(1, job.profiles()), job.parallelism());
    }
}
