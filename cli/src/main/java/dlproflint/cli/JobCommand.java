package dlproflint.cli;

import dlproflint.findings.LintRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code dlprof-lint job PATH...}: the per-rank profiles of one distributed job, linted together. Each rank is
 * read, linted and reduced to a compact summary (in parallel, {@code --jobs}); the ranks are identified and their
 * steps aligned by number; the cross-rank facts are computed and the job-scope packs run once; the ranks' own
 * findings are folded into one finding per rule and subject. One report for the whole job.
 */
@Command(name = "job", mixinStandardHelpOptions = true, versionProvider = RootCommand.Version.class, sortOptions = false,
        // one line: the command list of 'dlprof-lint --help' shows a command's first description line only
        description = "Lint the per-rank profiles of one distributed training job together: stragglers, exposed"
                + " communication, imbalance between ranks, missing ranks, and each rank's findings folded over the ranks.",
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
    BaselineOption baseline = new BaselineOption();
    @Mixin
    JobsOption jobs = new JobsOption();
    @Mixin
    ReportOutputs outputs = new ReportOutputs();
    @Mixin
    LintOptions lint = new LintOptions();

    JobCommand(CliEnv env, JobBackend backend) {
        this.env = env;
        this.backend = backend;
    }

    @Override
    public Integer call() throws Exception {
        int parallel = jobs.value();
        List<String> profiles = backend.expand(env, paths);
        LintSession session = LintSession.prepare(env, lint);
        // a rank file that is missing or unreadable does not stop the job (it is reported with the others), so the
        // inputs are not checked up front
        List<java.nio.file.Path> files = new ArrayList<>();
        for (String p : profiles) files.add(env.resolve(p));
        outputs.check(env, session.reads(files).withBaseline(baseline.path(env)), backend);
        Baseline known = baseline.read(env);
        JobPlan plan = new JobPlan(backend, profiles);
        LintRun run = plan.run(session.loadRules(), known, parallel);
        if (run == null) {
            env.err().println("dlprof-lint: no profile of the job could be read (" + profiles.size() + " given)");
            return ExitCodes.PROFILE;
        }
        env.err().println("dlprof-lint: " + plan.timing());
        int code = outputs.write(env, run, session.config, backend);
        baseline.reportStale(env, known, run);
        return code;
    }
}
