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

    @Parameters(arity = "1..*", paramLabel = "PROFILE", description = "Profiles to lint, reported in this order.")
    List<String> profiles = new ArrayList<>();

    @Mixin
    LintOutputs outputs = new LintOutputs();
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
        LintSession session = LintSession.open(env, profiles, rules, profileOptions,
                (config, inputs) -> outputs.check(env, inputs, null));
        LintRun run = session.run(outputs.baseline(), outputs.jobs);
        if (run == null) return ExitCodes.PROFILE;
        boolean anyStdout = outputs.write(env, session, run, null);
        if (!anyStdout) env.err().println("dlprof-lint: " + summary(run));
        return outputs.finish(env, run);
    }

    static String summary(LintRun run) {
        return LintOutputs.count(run) + " in " + run.results().size() + (run.results().size() == 1 ? " profile" : " profiles");
    }
}
