package dlproflint.cli;

import dlproflint.compare.RunComparison;
import dlproflint.facts.ProfileFacts;
import dlproflint.findings.LintRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code dlprof-lint compare BASE HEAD}: what changed between two runs. Both profiles go through the one lint
 * pipeline ({@link LintSession}); the head's facts get the {@link dlproflint.facts.Comparison} with the base, and
 * the {@code regression} rule pack judges it, so regressions are findings like any other (reports, suppressions,
 * baselines, {@code --fail-on}). {@code compare BASE... -- HEAD...} takes several captures of each side, as
 * Lighthouse CI takes several runs: step times are then judged against the variation between runs, and the head's
 * median run is the profile reported.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, versionProvider = RootCommand.Version.class, sortOptions = false,
        description = {"Compare a run (HEAD) with an earlier one (BASE): step time judged against the run-to-run noise, "
                + "key metrics, the ops and kernels whose GPU time per step grew most, kernels that appeared or vanished. "
                + "Regressions beyond their tolerance are findings of the 'regression' rule pack (tolerances: "
                + "rules.params in .dlprof-lint.yml).",
                "With several captures of each side (BASE... -- HEAD...) the step time is judged against the variation "
                + "between runs; with one of each, a slower step whose kernel time per step did not grow (host-side "
                + "gaps, which vary between runs) is a warning (regression/host-gaps), not an error."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  dlprof-lint compare main.sqlite pr.sqlite",
                "  dlprof-lint compare base/trace.json.gz head/trace.json.gz --report json=compare.json --report html=compare.html",
                "  dlprof-lint compare main.sqlite pr.sqlite --report sarif=regressions.sarif --fail-on warning",
                "  dlprof-lint compare main-1.json.gz main-2.json.gz main-3.json.gz -- pr-1.json.gz pr-2.json.gz pr-3.json.gz",
                "",
                "Exit codes: 0 no regression at or above --fail-on, 1 regressions at or above it,",
                "2 usage, configuration or rule error, 3 unreadable or unsupported profile, 70 internal error."})
final class CompareCommand implements Callable<Integer> {
    /** The pack whose rules judge a comparison. */
    static final String PACK = "regression";

    private final CliEnv env;

    @Parameters(arity = "1..*", paramLabel = "PROFILE", description = {
            "BASE HEAD: the earlier run (e.g. the main branch's profile) and the run to judge (the pull request's); "
            + "'-' for standard input.",
            "BASE... -- HEAD...: several captures of each side, the base's before '--', the head's after it."})
    List<String> profiles;

    @Spec
    CommandSpec spec;

    @Mixin
    ReportOutputs outputs = new ReportOutputs();
    @Mixin
    LintOptions lint = new LintOptions();

    CompareCommand(CliEnv env) {
        this.env = env;
    }

    @Override
    public Integer call() throws Exception {
        int bases = baseCount(profiles, original(spec));
        List<String> files = profiles.stream().filter(p -> !p.equals("--")).toList(); // a literal separator (below)
        if (bases < 0) {
            throw new ParameterException(spec.commandLine(), original(spec).contains("--")
                    ? "give at least one base and one head profile around '--': BASE... -- HEAD..."
                    : "give BASE HEAD, or several captures of each side as BASE... -- HEAD... (" + profiles.size()
                    + (profiles.size() == 1 ? " profile" : " profiles and no '--'") + ")");
        }
        LintSession session = LintSession.prepare(env, lint);
        try (ProfileInputs inputs = ProfileInputs.of(env, files, false)) {
            outputs.check(env, session.reads(inputs.candidatePaths()));
            inputs.check();
            ProfilePlan plan = new ProfilePlan(inputs, read -> {
                List<ProfileFacts> base = read.subList(0, bases);
                List<ProfileFacts> head = read.subList(bases, read.size());
                return List.of(head.get(RunComparison.representative(head)).withComparison(RunComparison.of(base, head)));
            });
            // One capture after the other, not several at once: the comparison keeps every capture's facts anyway,
            // and the launcher sizes the heap for one read's working set beside them (two reads at once ran a
            // hostile pair of 200,000 kernel names each out of heap).
            LintRun run = plan.run(session.loadRules().onlyPack(PACK), null, 1);
            if (run == null) return ExitCodes.PROFILE;
            return outputs.write(env, run, session.config);
        }
    }

    private static List<String> original(CommandSpec spec) {
        return spec.commandLine().getParseResult().originalArgs();
    }

    /**
     * How many of the profiles are the base's: the first with {@code BASE HEAD}, those given before {@code --} with
     * {@code BASE... -- HEAD...}; -1 when the arguments say neither (more than two profiles without a separator, a
     * side left empty, or two separators). A {@code --} before every profile ends the options, as everywhere (a
     * profile may then be named like an option); a second {@code --} then separates the sides, and picocli hands it
     * over as a profile named {@code --}, which {@link #call} drops.
     *
     * @param original the command line as given (picocli keeps no trace of where {@code --} stood among the
     *                 positional parameters, so they are matched against it in order)
     */
    static int baseCount(List<String> profiles, List<String> original) {
        int dash = original.indexOf("--");
        int literal = profiles.indexOf("--");
        if (dash < 0) return profiles.size() == 2 ? 1 : -1;
        int command = original.indexOf("compare");
        int matched = 0;
        for (int i = command + 1; i < dash && matched < profiles.size(); i++) {
            if (original.get(i).equals(profiles.get(matched))) matched++;
        }
        if (matched > 0) return literal >= 0 || matched == profiles.size() ? -1 : matched;
        // the "--" stood before every profile: the end of the options
        if (literal < 0) return profiles.size() == 2 ? 1 : -1;
        return literal == 0 || literal == profiles.size() - 1 || profiles.lastIndexOf("--") != literal ? -1 : literal;
    }
}
