package dlproflint.cli;

import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code dlprof-lint baseline PROFILE... [--output FILE]}: record today's findings as known (stdout by default). */
@Command(name = "baseline", mixinStandardHelpOptions = true, versionProvider = RootCommand.Version.class, sortOptions = false,
        description = "Write a baseline of the current findings (rule id + fingerprint), so that "
                + "'lint --baseline FILE' fails only on new ones.",
        footerHeading = "%nExample:%n",
        footer = {"  dlprof-lint baseline run.sqlite --output .dlprof-baseline.json",
                "  dlprof-lint baseline run.sqlite > .dlprof-baseline.json",
                "  dlprof-lint run.sqlite --baseline .dlprof-baseline.json"})
final class BaselineCommand implements Callable<Integer> {
    private final CliEnv env;

    @Parameters(arity = "1..*", paramLabel = "PROFILE", description = "Profiles whose findings become the baseline.")
    List<String> profiles = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Baseline file to write (default, or '-': standard output, e.g. '> .dlprof-baseline.json').")
    String output;

    @Mixin
    JobsOption jobs = new JobsOption();
    @Mixin
    LintOptions lint = new LintOptions();

    BaselineCommand(CliEnv env) {
        this.env = env;
    }

    @Override
    public Integer call() throws Exception {
        Path out = output == null || output.equals("-") ? null : env.resolve(output);
        int parallel = jobs.value();
        LintSession session = LintSession.prepare(env, lint);
        try (ProfileInputs inputs = ProfileInputs.of(env, profiles, true)) {
            if (out != null) OutputChecks.checkWritableFile(out, "--output", session.reads(inputs.candidatePaths()));
            inputs.check();
            LintRun run = new ProfilePlan(inputs).run(session.loadRules(), null, parallel);
            if (run == null) return ExitCodes.PROFILE;
            List<Finding> all = new ArrayList<>();
            for (ProfileResult r : run.results()) all.addAll(r.findings());
            Baseline b = Baseline.of(ToolVersion.get(), all);
            if (out == null) {
                b.write(env.out());
                env.out().flush();
            } else {
                b.write(out);
            }
            env.err().println("dlprof-lint: wrote " + b.findings().size() + " baseline entr"
                    + (b.findings().size() == 1 ? "y" : "ies") + " to " + (out == null ? "standard output" : output));
            return ExitCodes.OK;
        }
    }
}
