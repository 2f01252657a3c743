package dlproflint.reporters.text;

import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.findings.PackInfo;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.Severity;
import dlproflint.findings.Subject;
import dlproflint.findings.Units;
import dlproflint.facts.ExtractionWarning;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.JobFacts;
import dlproflint.facts.ProfileFacts;
import dlproflint.reporters.JobLines;
import dlproflint.facts.StackFrame;
import dlproflint.findings.FindingOrder;
import dlproflint.findings.SourceLines;
import dlproflint.reporters.Formats;
import dlproflint.reporters.Reporter;
import dlproflint.reporters.SeverityCounts;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The default report, for a terminal: one block per profile (its key metrics, then its findings in
 * {@link FindingOrder}), one summary line per profile and a total. Colour only when asked for.
 */
public final class TextReporter implements Reporter {
    public static final String FORMAT = "text";
    private static final String INDENT = "    ";

    private final TextStyle ansi;

    /** @param style {@link TextStyle#PLAIN}, or the terminal colours the caller chose */
    public TextReporter(TextStyle style) {
        this.ansi = style == null ? TextStyle.PLAIN : style;
    }

    @Override
    public void render(LintRun run, OutputStream out) throws IOException {
        Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        PrintWriter p = new PrintWriter(w);
        header(p, run);
        for (ProfileResult r : run.results()) {
            p.print("\n");
            profile(p, r, run.isJob() ? run.job().facts() : null);
        }
        if (run.results().size() > 1) {
            p.print("\n");
            p.print(ansi.bold("Total") + " (" + run.results().size() + " profiles): "
                    + countsLine(SeverityCounts.total(run.results())) + "\n");
        }
        p.flush();
        if (p.checkError()) throw new IOException("cannot write the text report");
    }

    private void header(PrintWriter p, LintRun run) {
        StringJoiner packs = new StringJoiner(", ");
        for (PackInfo pack : run.packs()) packs.add(TerminalText.line(pack.id()) + " " + TerminalText.line(pack.version()));
        p.print(ansi.bold("dlprof-lint " + TerminalText.line(run.toolVersion())));
        p.print(run.packs().isEmpty() ? "\n" : " | packs: " + packs + "\n");
    }

    /** @param job the cross-rank facts when {@code r} is a distributed job's result, else null */
    private void profile(PrintWriter p, ProfileResult r, JobFacts job) {
        ProfileFacts facts = r.facts();
        p.print(ansi.bold(TerminalText.line(facts.profile().path())) + " "
                + ansi.dim("[" + TerminalText.line(facts.profile().format()) + "]") + "\n");
        if (job != null) {
            for (String line : JobLines.lines(job)) p.print("  " + TerminalText.line(line) + "\n");
        } else {
            for (String line : metricLines(facts)) p.print("  " + line + "\n");
            // what the reader tolerated or could not find: never silent, it changes what the findings mean
            for (ExtractionWarning w : facts.warnings()) {
                p.print("  " + ansi.severity(Severity.WARNING, "warning:") + " " + TerminalText.line(w.message())
                        + ansi.dim(" [" + TerminalText.line(w.code()) + "]") + "\n");
            }
            if (!facts.hasGpuWork()) {
                p.print("  " + ansi.severity(Severity.WARNING, "no GPU work:") + " the profile holds no kernels, copies or memsets,"
                        + " so nothing about the GPU could be checked\n");
            }
            if (facts.comparison() != null) {
                p.print("\n");
                for (String line : ComparisonText.lines(facts.comparison())) p.print("  " + line + "\n");
            }
        }
        List<Finding> findings = FindingOrder.sorted(r.findings());
        for (Finding f : findings) {
            p.print("\n");
            finding(p, f, facts);
        }
        p.print("\n  " + countsLine(SeverityCounts.of(r), facts) + "\n");
    }

    /** GPU(s), wall time, GPU and tensor-core utilization, iterations. */
    static List<String> metricLines(ProfileFacts facts) {
        List<String> lines = new ArrayList<>();
        Map<Integer, GpuUsage> usage = new LinkedHashMap<>();
        for (GpuUsage u : facts.gpuUsage()) usage.put(u.deviceId(), u);
        StringJoiner gpus = new StringJoiner("; ");
        for (GpuInfo g : facts.gpus()) {
            GpuUsage u = usage.remove(g.deviceId());
            String s = "GPU " + g.deviceId() + " " + TerminalText.line(g.name() == null ? "unknown" : g.name())
                    + " (cc " + g.computeCapability() + ")";
            if (u != null) s += " util " + Formats.pct(u.utilizationPct());
            gpus.add(s);
        }
        for (GpuUsage u : usage.values()) gpus.add("GPU " + u.deviceId() + " util " + Formats.pct(u.utilizationPct()));
        lines.add("GPUs: " + (gpus.length() == 0 ? "none recorded" : gpus.toString()));

        long wall = facts.breakdown().wallNs() > 0 ? facts.breakdown().wallNs() : facts.profile().wallNs();
        IterationSummary it = facts.iterationSummary();
        String iterations = it.total() == 0 ? "not split"
                : it.total() + " (aggregated " + it.aggStart() + "-" + it.aggStop()
                + (it.avgDurationNs() > 0 ? ", avg " + Formats.duration(it.avgDurationNs()) : "") + "; "
                + TerminalText.line(it.howFound()) + ")";
        lines.add("wall " + Formats.duration(wall)
                + " | GPU util " + Formats.pct(facts.breakdown().gpuUtilizationPct())
                + " | TC util " + Formats.pct(facts.breakdown().tcUtilizationPct())
                + " | iterations " + iterations);
        String steps = stepsLine(it);
        if (steps != null) lines.add(steps);
        return lines;
    }

    /** How the steps were measured and what the steady window left out; null with a single interval. */
    static String stepsLine(IterationSummary it) {
        if (it.total() <= 1 || it.binding() == null && !it.leftOutSteps()) return null;
        String line = "steps: " + it.bindingText();
        if (it.leftOutSteps()) {
            line += (it.binding() == null ? "" : " | ") + "steady window " + it.aggStart() + "-" + it.aggStop() + ": "
                    + TerminalText.line(it.windowNote());
        } else if (IterationSummary.STEADY.equals(it.window())) {
            line += " | steady window: no warm-up step left out";
        }
        return line;
    }

    private void finding(PrintWriter p, Finding f, ProfileFacts facts) {
        Severity sev = f.severity() == null ? Severity.WARNING : f.severity();
        String label = String.format("%-7s", sev.label().toUpperCase(java.util.Locale.ROOT));
        p.print("  " + ansi.severity(sev, label) + " " + ansi.bold(TerminalText.line(f.ruleId()))
                + (f.category() == null || f.category().isBlank() ? "" : " " + ansi.dim("(" + TerminalText.line(f.category()) + ")"))
                + "\n");
        // what it costs comes first: it is what the findings are ordered and rated by
        if (f.impact() != null) p.print(INDENT + ansi.bold(Units.impact(f.impact())) + "\n");
        block(p, "", f.problem());
        block(p, "fix: ", f.recommendation());
        Subject s = f.subject();
        if (s != null && !"profile".equals(s.kind())) {
            p.print(INDENT + "subject: " + TerminalText.line(subjectText(s)) + "\n");
        }
        StackFrame loc = f.location();
        if (loc != null && loc.file() != null) {
            p.print(INDENT + "at: " + TerminalText.line(loc.toString())
                    + (loc.function() == null || loc.function().isBlank() ? "" : " in " + TerminalText.line(loc.function()))
                    + "\n");
        } else {
            p.print(INDENT + ansi.dim("no source line: " + TerminalText.line(SourceLines.whyNone(f, facts))) + "\n");
        }
        if (f.evidence() != null && !f.evidence().isEmpty()) {
            StringJoiner ev = new StringJoiner(", ");
            f.evidence().forEach((k, v) -> ev.add(k + "=" + Formats.value(v)));
            p.print(INDENT + ansi.dim("evidence: " + TerminalText.line(ev.toString())) + "\n");
        }
        if (f.impact() != null && !f.impact().model().isBlank()) {
            p.print(INDENT + ansi.dim("cost estimate: " + TerminalText.line(f.impact().model())) + "\n");
        }
        if (f.helpUri() != null && !f.helpUri().isBlank()) {
            p.print(INDENT + ansi.dim("help: " + TerminalText.line(f.helpUri())) + "\n");
        }
    }

    /** "op CONV2D_1 (model/conv1)", "kernel volta_sgemm", "GPU 0": the kind once, the key only when it adds something. */
    private static String subjectText(Subject s) {
        String name = s.name() == null ? "" : s.name();
        String key = s.key() == null ? "" : s.key();
        String kind = s.kind() == null ? "" : s.kind();
        if (name.isEmpty()) return (kind + " " + key).strip();
        if (!key.isEmpty() && !name.contains(key)) return kind + " " + key + " (" + name + ")";
        return name.toLowerCase(java.util.Locale.ROOT).startsWith(kind.toLowerCase(java.util.Locale.ROOT)) ? name : kind + " " + name;
    }

    private static void block(PrintWriter p, String label, String text) {
        if (text == null || text.isBlank()) return;
        String[] lines = TerminalText.lines(text.strip());
        String pad = " ".repeat(label.length());
        for (int i = 0; i < lines.length; i++) {
            p.print(INDENT + (i == 0 ? label : pad) + lines[i] + "\n");
        }
    }

    private String countsLine(SeverityCounts c, ProfileFacts facts) {
        String s = countsLine(c);
        return c.findings() == 0 && !facts.hasGpuWork() ? s.replace("no findings: ", "no findings (no GPU work recorded): ") : s;
    }

    private String countsLine(SeverityCounts c) {
        String s = plural(c.error(), "error") + ", " + plural(c.warning(), "warning") + ", " + plural(c.note(), "note");
        if (c.error() > 0) s = ansi.severity(Severity.ERROR, s);
        else if (c.warning() > 0) s = ansi.severity(Severity.WARNING, s);
        return (c.findings() == 0 ? "no findings: " : "") + s
                + (c.suppressed() > 0 ? " (" + c.suppressed() + " suppressed)" : "");
    }

    private static String plural(int n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }
}
