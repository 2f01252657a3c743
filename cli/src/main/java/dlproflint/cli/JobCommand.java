package dlproflint.cli;

import dlproflint.findings.LintRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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

    @Mixin
    LintOutputs outputs = new LintOutputs();
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
        List<String> profiles = backend.expand(env, paths);
        LintSession session = LintSession.openJob(env, profiles, rules, profileOptions,
                (config, inputs) -> outputs.check(env, inputs, backend));
        LintSession.JobRun job = session.runJob(backend, outputs.baseline(), outputs.jobs);
        if (job == null) {
            env.err().println("dlprof-lint: no profile of the job could be read (" + profiles.size() + " given)");
            return ExitCodes.PROFILE;
        }
        LintRun run = job.run();
        outputs.write(env, session, run, backend);
        env.err().println("dlprof-lint: " + summary(job));
        return outputs.finish(env, run);
    }

    /** {@code 3 findings in a job of 64 ranks (64 profiles read in 12.3 s: 192 ms per rank, 2 at a time, local)}. */
    static String summary(LintSession.JobRun job) {
        int ranks = job.run().job().ranksSummarised();
        double seconds = job.readNs() / 1e9;
        return LintOutputs.count(job.run()) + " in a job of " + ranks + (ranks == 1 ? " rank" : " ranks") + " ("
                + job.profiles() + (job.profiles() == 1 ? " profile" : " profiles") + " read in "
                + String.format(Locale.ROOT, "%.1f s: %.0f ms per rank, %d at a time)", seconds,
                job.readNs() / 1e6 / Math.max(1, job.profiles()), job.parallelism());
    }
}
