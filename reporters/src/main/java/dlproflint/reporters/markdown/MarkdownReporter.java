package dlproflint.reporters.markdown;

import dlproflint.facts.ExtractionWarning;
import dlproflint.facts.ProfileFacts;
import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.findings.Units;
import dlproflint.findings.PackInfo;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.Severity;
import dlproflint.findings.FindingOrder;
import dlproflint.reporters.Reporter;
import dlproflint.reporters.SeverityCounts;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.StringJoiner;

/**
 * GitHub-flavoured markdown for a pull-request comment or a job summary ({@code $GITHUB_STEP_SUMMARY}):
 * per profile a table of key metrics, then the findings in {@link FindingOrder} with severity, rule (linked
 * to its help page), problem and impact, and their next steps folded in a {@code <details>} block.
 * Every profile- or rule-controlled string goes through {@link MarkdownText}. The document stays under
 * {@link #MAX_CHARS} characters (a comment holds 65,536): findings past the budget are counted, not shown.
 */
public final class MarkdownReporter implements Reporter {
    public static final String FORMAT = "markdown";
    /** Budget for the whole document, below GitHub's 65,536-character comment limit with room for a header. */
    public static final int MAX_CHARS = 60_000;
    static final int CELL_CHARS = 300;
    static final int NAME_CHARS = 120;
    static final int MAX_WARNINGS = 10;
    private static final int FOOTER_CHARS = 200;
    private static final int DETAILS_CHARS = 200;

    @Override
    public void render(LintRun run, OutputStream out) throws IOException {
        out.write(document(run).getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    static String document(LintRun run) {
        StringBuilder md = new StringBuilder(4096);
        SeverityCounts total = SeverityCounts.total(run.results());
        int profiles = run.results().size();
        md.append("## dlprof-lint: ").append(counts(total)).append(" in ").append(profiles)
                .append(profiles == 1 ? " profile" : " profiles").append("\n\n");
        StringJoiner packs = new StringJoiner(", ");
        for (PackInfo p : run.packs()) packs.add(MarkdownText.inline(p.id() + " " + p.version(), NAME_CHARS));
        md.append("dlprof-lint ").append(MarkdownText.inline(run.toolVersion(), NAME_CHARS))
                .append(run.packs().isEmpty() ? "" : " \u00B7 packs: " + packs).append("\n");
        // Profiles share what is left of the budget in order; one that cannot even show its metrics ends the list.
        List<String> titles = dlproflint.reporters.ProfileNames.titles(run.results());
        for (int i = 0; i < profiles; i++) {
            int share = (MAX_CHARS - FOOTER_CHARS - md.length()) / (profiles - i);
            if (!profile(md, run.results().get(i), titles.get(i), md.length() + share)) {
                md.append("\n").append(profiles - i).append(" more profile").append(profiles - i == 1 ? "" : "s")
                        .append(" not shown here; the HTML, JSON and SARIF reports list them all.\n");
                break;
            }
        }
        return md.toString();
    }

    /** Appends one profile within {@code limit} characters of {@code md}; false (nothing appended) when even its header does not fit. */
    private static boolean profile(StringBuilder md, ProfileResult r, String title, int limit) {
        ProfileFacts f = r.facts();
        SeverityCounts c = SeverityCounts.of(r);
        StringBuilder head = new StringBuilder(1024);
        // the file name, not the runner's absolute path (/home/runner/work/...), which says nothing in a pull request
        head.append("\n### ").append(MarkdownText.inline(title, CELL_CHARS)).append("\n\n");
        head.append(MarkdownText.inline(f.profile().format(), NAME_CHARS));
        if (f.profile().profilerVersion() != null) {
            head.append(" \u00B7 recorded by ").append(MarkdownText.inline(f.profile().profilerVersion(), NAME_CHARS));
        }
        head.append(" \u00B7 ").append(counts(c));
        if (c.suppressed() > 0) head.append(" (").append(c.suppressed()).append(" suppressed or baselined)");
        head.append("\n\n| Metric | Value |\n| --- | --- |\n");
        for (MetricRows.Row row : MetricRows.of(f)) {
            head.append("| ").append(row.label()).append(" | ").append(MarkdownText.inline(row.value(), CELL_CHARS))
                    .append(" |\n");
        }
        warnings(head, f.warnings());
        if (md.length() + head.length() > limit) return false;
        md.append(head);
        List<Finding> findings = FindingOrder.sorted(r.findings());
        if (findings.isEmpty()) {
            md.append("\nNo findings.\n");
            return true;
        }
        boolean anyImpact = findings.stream().anyMatch(x -> x.impact() != null);
        md.append("\n| Severity | Rule | Finding |").append(anyImpact ? " Impact |" : "").append('\n')
                .append("| --- | --- | --- |").append(anyImpact ? " --- |" : "").append('\n');
        StringBuilder steps = new StringBuilder();
        int shown = 0;
        for (Finding x : findings) {
            String row = row(x, anyImpact);
            String step = nextStep(x);
            if (md.length() + row.length() + steps.length() + step.length() + DETAILS_CHARS > limit) break;
            md.append(row);
            steps.append(step);
            shown++;
        }
        int hidden = findings.size() - shown;
        if (hidden > 0) {
            md.append("\n").append(hidden).append(" more finding").append(hidden == 1 ? "" : "s")
                    .append(" not shown here; the HTML, JSON and SARIF reports list them all.\n");
        }
        if (steps.length() > 0) md.append("\n<details><summary>Next steps</summary>\n\n").append(steps).append("\n</details>\n");
        return true;
    }

    private static String row(Finding x, boolean impactColumn) {
        StringBuilder b = new StringBuilder(256).append("| ").append(severity(x.severity())).append(" | ")
                .append(MarkdownText.link(x.ruleId(), x.helpUri(), NAME_CHARS)).append(" | ")
                .append(MarkdownText.inline(x.problem(), CELL_CHARS)).append(" |");
        if (impactColumn) {
            String impact = x.impact() == null ? null : Units.impact(x.impact());
            b.append(' ').append(impact == null ? "\u2014" : MarkdownText.inline(impact, CELL_CHARS)).append(" |");
        }
        return b.append('\n').toString();
    }

    private static String nextStep(Finding x) {
        if (x.recommendation() == null || x.recommendation().isBlank()) return "";
        return "- **" + MarkdownText.inline(x.ruleId(), NAME_CHARS) + "**: "
                + MarkdownText.inline(x.recommendation(), CELL_CHARS) + "\n";
    }

    private static void warnings(StringBuilder md, List<ExtractionWarning> warnings) {
        if (warnings.isEmpty()) return;
        md.append("\nThe reader noted:\n\n");
        for (ExtractionWarning w : warnings.subList(0, Math.min(MAX_WARNINGS, warnings.size()))) {
            md.append("- ").append(MarkdownText.inline(w.message(), CELL_CHARS)).append('\n');
        }
        if (warnings.size() > MAX_WARNINGS) {
            md.append("- \u2026 and ").append(warnings.size() - MAX_WARNINGS).append(" more\n");
        }
    }

    /** An icon for scanning the table, always with the word (colour is never the only signal). */
    private static String severity(Severity s) {
        Severity v = s == null ? Severity.WARNING : s;
        return switch (v) {
            case ERROR -> "\uD83D\uDD34 error";
            case WARNING -> "\uD83D\uDFE0 warning";
            case NOTE -> "\uD83D\uDD35 note";
        };
    }

    private static String counts(SeverityCounts c) {
        return plural(c.error(), "error") + ", " + plural(c.warning(), "warning") + ", " + plural(c.note(), "note");
    }

    private static String plural(int n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }
}
