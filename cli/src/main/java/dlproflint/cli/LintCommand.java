package dlproflint.cli;

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

    @Option(names = "--report", paramLabel = "FORMAT[=PATH]", converter = ReportTarget.Converter.class,
            description = "Write a report: text (default), json, sarif, csv, html, markdown, codequality, expert-systems-csv. "
                    + "No PATH or '-' = stdout. Repeatable.")
    List<ReportTarget> reports = new ArrayList<>();

    @Option(names = "--fail-on", paramLabel = "LEVEL", defaultValue = "error",
            converter = LowercaseEnums.FailOnConverter.class, completionCandidates = LowercaseEnums.FailOnValues.class,
            description = "Exit 1 when a finding is at least this severe: error (default), warning, note, none.")
    FailOn failOn;

    @Option(names = "--baseline", paramLabel = "FILE", description = "Hide the known findings listed in FILE (see 'baseline').")
    String baseline;

    @Option(names = "--sarif-anchor", paramLabel = "FILE",
            description = "Repository file SARIF results point to when no source line is known (overrides sarif.anchor).")
    String sarifAnchor;

    @Option(names = "--color", paramLabel = "WHEN", defaultValue = "auto",
            converter = LowercaseEnums.ColorConverter.class, completionCandidates = LowercaseEnums.ColorValues.class,
            description = "Colour the text report: auto (default; honours NO_COLOR), always, never.")
    ColorMode color;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", description = "Profiles read in parallel (default: up to 4).")
    int jobs;

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
        List<ReportTarget> targets = reports.isEmpty() ? List.of(new ReportTarget("text", null)) : reports;
        if (jobs < 0) throw CliException.usage("--jobs must be 1 or more");
        Baseline[] known = new Baseline[1];
        LintSession session = LintSession.open(env, profiles, rules, profileOptions, (config, inputs) -> {
            OutputChecks.checkReports(targets, inputs, env);
            for (ReportTarget t : targets) ReportFormats.checkAvailable(t.format());
            if (baseline != null) known[0] = Baseline.read(env.resolve(baseline));
        });
        LintRun run = session.run(known[0], jobs);
        if (run == null) return ExitCodes.PROFILE;

        // --sarif-anchor is a path like any other argument (relative to the working directory);
        // sarif.anchor in the configuration is repository-relative, which the SARIF reporter resolves.
        String anchor = sarifAnchor != null ? env.resolve(sarifAnchor).toString() : session.config.sarifAnchor();
        Path repoRoot = RepoRoot.find(env.cwd());
        boolean anyStdout = false;
        for (ReportTarget t : targets) {
            // Render fully before touching the destination: a failing renderer leaves no partial report.
            ReportFormats.Context ctx = new ReportFormats.Context(t.toStdout() && color.enabled(env), repoRoot, anchor);
            anyStdout |= ReportSink.write(env, t, out -> ReportFormats.render(t.format(), run, ctx, out));
        }
        if (!anyStdout) env.err().println("dlprof-lint: " + summary(run));
        if (known[0] != null) reportStale(known[0], run);
        return failOn.fails(run.results()) ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    private void reportStale(Baseline b, LintRun run) {
        List<dlproflint.findings.Finding> seen = new ArrayList<>();
        for (ProfileResult r : run.results()) {
            seen.addAll(r.findings());
            seen.addAll(r.suppressed());
        }
        int stale = b.stale(seen).size();
        if (stale > 0) {
            env.err().println("dlprof-lint: note: " + stale + " of " + b.findings().size() + " baseline entries matched no finding"
                    + " (fixed?); refresh the baseline with 'dlprof-lint baseline PROFILE... --output " + baseline + "'");
        }
    }

    static String summary(LintRun run) {
        int findings = 0;
        int hidden = 0;
        for (ProfileResult r : run.results()) {
            findings += r.findings().size();
            hidden += r.suppressed().size();
        }
        return findings + (findings == 1 ? " finding" : " findings") + (hidden > 0 ? " (" + hidden + " suppressed or baselined)" : "")
                + " in " + run.results().size() + (run.results().size() == 1 ? " profile" : " profiles");
    }
}
