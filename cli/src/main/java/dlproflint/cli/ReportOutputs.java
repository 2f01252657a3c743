package dlproflint.cli;

import dlproflint.cli.config.LintConfig;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.reporters.io.OutputTarget;
import picocli.CommandLine.Option;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reports of a command that produces findings ({@code lint}, {@code compare}, {@code job}): the options that choose them,
 * the checks that run before any profile is read, the writing, and the exit code from {@code --fail-on}.
 */
final class ReportOutputs {
    @Option(names = "--report", paramLabel = "FORMAT[=PATH]", converter = ReportTarget.Converter.class,
            description = "Write a report: text (default), json, sarif, csv, html, markdown, codequality, github, junit, "
                    + "expert-systems-csv. No PATH or '-' = stdout. Repeatable.")
    List<ReportTarget> reports = new ArrayList<>();

    @Option(names = {"-q", "--quiet"},
            description = "No text report on the terminal when every report goes to a file (the one-line summary stays).")
    boolean quiet;

    @Option(names = "--fail-on", paramLabel = "LEVEL", defaultValue = "error",
            converter = LowercaseEnums.FailOnConverter.class, completionCandidates = LowercaseEnums.FailOnValues.class,
            description = "Exit 1 when a finding is at least this severe: error (default), warning, note, none.")
    FailOn failOn;

    @Option(names = "--sarif-anchor", paramLabel = "FILE",
            description = "Repository file SARIF results point to when no source line is known (overrides sarif.anchor).")
    String sarifAnchor;

    @Option(names = "--color", paramLabel = "WHEN", defaultValue = "auto",
            converter = LowercaseEnums.ColorConverter.class, completionCandidates = LowercaseEnums.ColorValues.class,
            description = "Colour the text report: auto (default; honours NO_COLOR), always, never.")
    ColorMode color;

    /** Whether a report of this format is asked for. */
    boolean wants(String format) {
        return targets().stream().anyMatch(t -> t.format().equals(format));
    }

    /** The reports asked for; the text report on stdout when none was. */
    List<ReportTarget> targets() {
        return reports.isEmpty() ? List.of(new ReportTarget("text", null)) : reports;
    }

    /** Before any profile is read: paths writable, none over a file the run reads, every format available. */
    void check(CliEnv env, ReadFiles inputs) throws CliException {
        check(env, inputs, null);
    }

    /** The same, leaving out the checks of local folders for the reports a job backend writes remotely. */
    void check(CliEnv env, ReadFiles inputs, JobBackend backend) throws CliException {
        List<ReportTarget> local = targets().stream()
                .filter(t -> t.toStdout() || backend == null || !backend.writesRemote(t.path())).toList();
        OutputChecks.checkReports(local, inputs, env);
        for (ReportTarget t : targets()) ReportFormats.checkAvailable(t.format());
    }

    /** Writes every report (a one-line summary on stderr when none went to stdout) and returns the exit code. */
    int write(CliEnv env, LintRun run, LintConfig config) throws Exception {
        return write(env, run, config, null);
    }

    /**
     * The same; reports whose path the job backend writes remotely (a cluster filesystem URI) go through it. Every
     * report is rendered before any is put in place, so a report that fails (a SARIF result without a place, a full
     * disk) leaves the others as they were rather than half of them new. When no report goes to stdout, the text
     * report still does (unless {@code --quiet}), as a terminal run without {@code --report} would show it.
     */
    int write(CliEnv env, LintRun run, LintConfig config, JobBackend backend) throws Exception {
        // --sarif-anchor is a path like any other argument (relative to the working directory);
        // sarif.anchor in the configuration is repository-relative, which the SARIF reporter resolves.
        String anchor = sarifAnchor != null ? env.resolve(sarifAnchor).toString() : config.sarifAnchor();
        Path repoRoot = RepoRoot.find(env.cwd());
        boolean repository = RepoRoot.isRepository(repoRoot);
        List<ReportTarget> all = new ArrayList<>(targets());
        boolean terminalText = !quiet && all.stream().noneMatch(t -> toStdout(env, t));
        if (terminalText) all.add(new ReportTarget("text", null));
        List<ReportSink.Prepared> local = new ArrayList<>();
        Map<String, byte[]> remote = new LinkedHashMap<>();
        boolean anyStdout = false;
        try {
            for (ReportTarget t : all) {
                ReportFormats.Context ctx = new ReportFormats.Context(t.toStdout() && color.enabled(env), repoRoot, repository,
                        anchor, failOn.threshold());
                if (!t.toStdout() && backend != null && backend.writesRemote(t.path())) {
                    ByteArrayOutputStream buf = new ByteArrayOutputStream();
                    ReportFormats.render(t.format(), run, ctx, buf);
                    remote.put(t.path(), buf.toByteArray());
                } else {
                    local.add(ReportSink.prepare(env, t, out -> ReportFormats.render(t.format(), run, ctx, out)));
                }
            }
            for (int i = 0; i < local.size(); i++) {
                boolean stdout = local.get(i).commit();
                if (!(terminalText && i == local.size() - 1)) anyStdout |= stdout;
            }
            for (Map.Entry<String, byte[]> e : remote.entrySet()) backend.writeRemote(e.getKey(), e.getValue());
        } finally {
            for (ReportSink.Prepared p : local) p.close();
        }
        if (!anyStdout) env.err().println("dlprof-lint: " + summary(run));
        return failOn.fails(run.results()) ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    /** Whether a report goes to stdout: no path, {@code -}, or an alias such as {@code /dev/stdout}. */
    private static boolean toStdout(CliEnv env, ReportTarget t) {
        if (t.toStdout()) return true;
        try {
            return OutputTarget.of(env.resolve(t.path())).kind() == OutputTarget.Kind.STDOUT;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    static String summary(LintRun run) {
        int findings = 0;
        int hidden = 0;
        for (ProfileResult r : run.results()) {
            findings += r.findings().size();
            hidden += r.suppressed().size();
        }
        String counted = findings + (findings == 1 ? " finding" : " findings") + (hidden > 0 ? " (" + hidden + " suppressed or baselined)" : "");
        if (run.isJob()) {
            int ranks = run.job().ranksSummarised();
            return counted + " in a job of " + ranks + (ranks == 1 ? " rank" : " ranks");
        }
        return counted + " in " + run.results().size() + (run.results().size() == 1 ? " profile" : " profiles");
    }

    /** A note on stderr when baseline entries matched no finding (fixed?), saying how to refresh the baseline. */
    static void reportStale(CliEnv env, Baseline baseline, String baselinePath, LintRun run) {
        List<dlproflint.findings.Finding> seen = new ArrayList<>();
        for (ProfileResult r : run.results()) {
            seen.addAll(r.findings());
            seen.addAll(r.suppressed());
        }
        int stale = baseline.stale(seen).size();
        if (stale > 0) {
            env.err().println("dlprof-lint: note: " + stale + " of " + baseline.findings().size() + " baseline entries matched no finding"
                    + " (fixed?); refresh the baseline with 'dlprof-lint baseline PROFILE... --output " + baselinePath + "'");
        }
    }
}
