package dlproflint.cli;

import dlproflint.compare.RunComparison;
import dlproflint.findings.LintRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code dlprof-lint compare BASE HEAD}: what changed between two runs. Both profiles go through the one lint
 * pipeline ({@link LintSession}); the head's facts get the {@link dlproflint.facts.Comparison} with the base, and
 * the {@code regression} rule pack judges it, so regressions are findings like any other (reports, suppressions,
 * baselines, {@code --fail-on}).
 */
@Command(name = "compare", mixinStandardHelpOptions = true, versionProvider = RootCommand.Version.class, sortOptions = false,
        description = {"Compare a run (HEAD) with an earlier one (BASE): step time judged against the run-to-run noise, "
                + "key metrics, the ops and kernels whose GPU time per step grew most, kernels that appeared or vanished. "
                + "Regressions beyond their tolerance are findings of the 'regression' rule pack (tolerances: "
                + "rules.params in .dlprof-lint.yml)."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  dlprof-lint compare main.sqlite pr.sqlite",
                "  dlprof-lint compare base/trace.json.gz head/trace.json.gz --report json=compare.json --report html=compare.html",
                "  dlprof-lint compare main.sqlite pr.sqlite --report sarif=regressions.sarif --fail-on warning",
                "",
                "Exit codes: 0 no regression at or above --fail-on, 1 regressions at or above it,",
                "2 usage, configuration or rule error, 3 unreadable or unsupported profile, 70 internal error."})
final class CompareCommand implements Callable<Integer> {
    /** The pack whose rules judge a comparison. */
    static final String PACK = "regression";

    private final CliEnv env;

    @Parameters(index = "0", paramLabel = "BASE", description = "The earlier run (e.g. the main branch's profile); '-' for standard input.")
    String base;

    @Parameters(index = "1", paramLabel = "HEAD", description = "The run to judge (e.g. the pull request's profile); '-' for standard input.")
    String head;

    @Mixin
    ReportOutputs outputs = new ReportOutputs();
    @Mixin
    LintOptions lint = new LintOptions();

    CompareCommand(CliEnv env) {
        this.env = env;
    }

    @Override
    public Integer call() throws Exception {
        LintSession session = LintSession.prepare(env, lint);
        try (ProfileInputs inputs = ProfileInputs.of(env, List.of(base, head), false)) {
            outputs.check(env, session.reads(inputs.candidatePaths()));
            inputs.check();
            ProfilePlan plan = new ProfilePlan(inputs,
                    read -> List.of(read.get(1).withComparison(RunComparison.of(read.get(0), read.get(1)))));
            // One side after the other, not both at once: the comparison keeps both sides' facts anyway, and the
            // launcher sizes the heap for one read's working set beside them (two reads at once ran a hostile pair
            // of 200,000 kernel names each out of heap).
            LintRun run = plan.run(session.loadRules().onlyPack(PACK), null, 1);
            if (run == null) return ExitCodes.PROFILE;
            return outputs.write(env, run, session.config);
        }
    }
}
