package dlproflint.cli;

import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.reporters.io.AtomicFiles;
import picocli.CommandLine.Option;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a linting command does with its findings, shared by {@code lint} and {@code job}: the reports
 * ({@code --report}), the exit status ({@code --fail-on}), the baseline, the SARIF anchor, colour and parallelism.
 */
final class LintOutputs {
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

    private Baseline known;

    List<ReportTarget> targets() {
        return reports.isEmpty() ? List.of(new ReportTarget("text", null)) : reports;
    }

    /** Checks run before any rule pack is compiled or profile read: report paths and formats, the baseline file. */
    void check(CliEnv env, List<Path> inputs, JobBackend backend) throws Exception {
        if (jobs < 0) throw CliException.usage("--jobs must be 1 or more");
        List<ReportTarget> local = targets().stream().filter(t -> t.toStdout() || backend == null || !backend.writesRemote(t.path())).toList();
        OutputChecks.checkReports(local, inputs, env);
        for (ReportTarget t : targets()) ReportFormats.checkAvailable(t.format());
        if (baseline != null) known = Baseline.read(env.resolve(baseline));
    }

    Baseline baseline() {
        return known;
    }

    /**
     * Renders every report (fully, before touching its destination: a failing renderer leaves no partial report)
     * and writes it; returns whether one went to stdout.
     */
    boolean write(CliEnv env, LintSession session, LintRun run, JobBackend backend) throws IOException {
        // --sarif-anchor is a path like any other argument (relative to the working directory);
        // sarif.anchor in the configuration is repository-relative, which the SARIF reporter resolves.
        String anchor = sarifAnchor != null ? env.resolve(sarifAnchor).toString() : session.config.sarifAnchor();
        Path repoRoot = RepoRoot.find(env.cwd());
        boolean anyStdout = false;
        for (ReportTarget t : targets()) {
            ReportFormats.Context ctx = new ReportFormats.Context(t.toStdout() && color.enabled(env), repoRoot, anchor);
            if (t.toStdout()) {
                ByteArrayOutputStream buf = new ByteArrayOutputStream();
                ReportFormats.render(t.format(), run, ctx, buf);
                env.out().write(buf.toByteArray());
                env.out().flush();
                anyStdout = true;
            } else if (backend != null && backend.writesRemote(t.path())) {
                ByteArrayOutputStream buf = new ByteArrayOutputStream();
                ReportFormats.render(t.format(), run, ctx, buf);
                backend.writeRemote(t.path(), buf.toByteArray());
            } else {
                AtomicFiles.write(env.resolve(t.path()), out -> ReportFormats.render(t.format(), run, ctx, out));
            }
        }
        return anyStdout;
    }

    /** Notes baseline entries no finding matched, then returns the exit status {@code --fail-on} asks for. */
    int finish(CliEnv env, LintRun run) {
        if (known != null) reportStale(env, run);
        return failOn.fails(run.results()) ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    private void reportStale(CliEnv env, LintRun run) {
        List<Finding> seen = new ArrayList<>();
        for (ProfileResult r : run.results()) {
            seen.addAll(r.findings());
            seen.addAll(r.suppressed());
        }
        int stale = known.stale(seen).size();
        if (stale > 0) {
            env.err().println("dlprof-lint: note: " + stale + " of " + known.findings().size() + " baseline entries matched no finding"
                    + " (fixed?); refresh the baseline with 'dlprof-lint baseline PROFILE... --output " + baseline + "'");
        }
    }

    /** {@code 3 findings (1 suppressed or baselined)}. */
    static String count(LintRun run) {
        int findings = 0;
        int hidden = 0;
        for (ProfileResult r : run.results()) {
            findings += r.findings().size();
            hidden += r.suppressed().size();
        }
        return findings + (findings == 1 ? " finding" : " findings") + (hidden > 0 ? " (" + hidden + " suppressed or baselined)" : "");
    }
}
