package dlproflint.cli;

import dlproflint.findings.LintRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code dlprof-lint [lint] PROFILE...}: the default command. */
@Command(name = "lint", mixinStandardHelpOptions = true, versionProvider = RootCommand.Version.class, sortOptions = false,
        description = "Lint one or more profiles (nsys SQLite export, DLProf database, PyTorch profiler trace).",
        footerHeading = "%nExamples:%n",
        footer = {
                "  dlprof-lint run.sqlite",
                "  dlprof-lint rank0.sqlite rank1.sqlite --report sarif=dlprof.sarif --report html=dlprof.html",
                "  dlprof-lint run.sqlite --fail-on warning --baseline .dlprof-baseline.json",
                "  dlprof-lint run.sqlite --key-node aten::zero_grad --iter-start 5 --iter-stop 20 --report json",
                "",
                "Exit codes: 0 no finding at or above --fail-on, 1 findings at or above it,",
                "2 usage, configuration or rule error, 3 unreadable or unsupported profile, 70 internal error."})
final class LintCommand implements Callable<Integer> {
    private final CliEnv env;

    @Parameters(arity = "1..*", paramLabel = "PROFILE",
            description = "Profiles to lint, reported in this order: files, folders (the profiles in them, by name) "
                    + "or '-' (one profile on standard input).")
    List<String> profiles = new ArrayList<>();

    @Mixin
    BaselineOption baseline = new BaselineOption();
    @Mixin
    JobsOption jobs = new JobsOption();
    @Mixin
    ReportOutputs outputs = new ReportOutputs();
    @Mixin
    LintOptions lint = new LintOptions();

    LintCommand(CliEnv env) {
        this.env = env;
    }

    @Override
    public Integer call() throws Exception {
        int parallel = jobs.value();
        LintSession session = LintSession.prepare(env, lint);
        try (ProfileInputs inputs = ProfileInputs.of(env, profiles, true)) {
            outputs.check(env, session.reads(inputs.candidatePaths()).withBaseline(baseline.path(env)));
            Baseline known = baseline.read(env);
            inputs.check();
            LintRun run = new ProfilePlan(inputs).withDetails(outputs.wants("html")).run(session.loadRules(), known, parallel);
            if (run == null) return ExitCodes.PROFILE;
            int code = outputs.write(env, run, session.config);
            baseline.reportStale(env, known, run);
            return code;
        }
    }
}
