package dlproflint.cli;

import dlproflint.findings.LintRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
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

    @Option(names = "--baseline", paramLabel = "FILE", description = "Hide the known findings listed in FILE (see 'baseline').")
    String baseline;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", description = "Profiles read in parallel (default: up to 4).")
    int jobs;

    @Mixin
    ReportOutputs outputs = new ReportOutputs();
    @Mixin
    RuleOptions rules = new RuleOptions();
    @Mixin
    ProfileOptions profileOptions = new ProfileOptions();
    @Mixin
    CommonOptions common = new CommonOptions();

    LintCommand(CliEnv env) {
        this.env = env;
    }

    @Override
    public Integer call() throws Exception {
        if (jobs < 0) throw CliException.usage("--jobs must be 1 or more");
        Baseline[] known = new Baseline[1];
        try (LintSession session = LintSession.open(env, profiles, rules, profileOptions, (config, reads) -> {
            outputs.check(env, reads.withBaseline(baseline == null ? null : env.resolve(baseline)));
            if (baseline != null) known[0] = Baseline.read(env.resolve(baseline));
        })) {
            LintRun run = session.run(known[0], jobs);
            if (run == null) return ExitCodes.PROFILE;
            int code = outputs.write(env, run, session.config);
            if (known[0] != null) ReportOutputs.reportStale(env, known[0], baseline, run);
            return code;
        }
    }
}
