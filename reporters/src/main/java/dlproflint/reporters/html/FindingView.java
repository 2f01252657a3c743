package dlproflint.reporters.html;

import dlproflint.findings.Finding;
import dlproflint.findings.RuleMetadata;
import dlproflint.findings.Severity;
import dlproflint.findings.Units;
import dlproflint.facts.StackFrame;
import dlproflint.reporters.EvidenceValues;
import dlproflint.reporters.Formats;
import dlproflint.reporters.html.viewer.Viewer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One finding, prepared for the template: cleaned texts, formatted evidence, and URLs in the
 * recommendation (written by rule authors) turned into links; the problem text embeds profile names,
 * so it stays plain text.
 */
public record FindingView(String anchor, String severity, String severityIcon, int severityRank, String ruleId,
                          String ruleName, String category, String subjectKind, String subject,
                          String problem, String problemShort,
                          List<Links.Segment> recommendation, List<Metric> evidence, String location,
                          String helpHref, String helpText, String fingerprint, String impact, String impactSaving,
                          String impactModel, double impactShare, List<Viewer.DrillLink> rows, String timelineHref,
                          String timelineText) {

    static FindingView of(Finding f, RuleMetadata rule, String anchor, List<Viewer.DrillLink> rows) {
        Severity sev = f.severity() == null ? Severity.WARNING : f.severity();
        String helpUri = f.helpUri() != null ? f.helpUri() : rule == null ? null : rule.helpUri();
        String href = Links.safeHref(helpUri);
        return new FindingView(anchor, sev.label(), icon(sev), sev.ordinal(), Text.clean(f.ruleId()),
                rule == null ? null : Text.clean(rule.name()), Text.clean(f.category()),
                f.subject() == null ? "profile" : Text.clean(f.subject().kind()),
                f.subject() == null ? "whole profile" : Text.cell(f.subject().name()),
                Text.clean(f.problem()), Text.cell(f.problem()),
                Links.segments(f.recommendation()), evidence(f.evidence()), location(f.location()),
                href, href == null && helpUri != null ? Text.clean(helpUri) : null, Text.clean(f.fingerprint()),
                Units.impactLost(f.impact()), Units.impactSaving(f.impact()),
                f.impact() == null || f.impact().model().isBlank() ? null : Text.clean(f.impact().model()),
                f.impact() == null ? -1 : f.impact().savingPct(), rows, null, null);
    }

    /** Findings about host waits and GPU idle time, which the Timeline view shows where they happen. */
    static boolean aboutTheTimeline(String ruleId) {
        String id = ruleId == null ? "" : ruleId.toLowerCase(java.util.Locale.ROOT);
        return id.contains("sync") || id.contains("idle") || id.contains("gap") || id.contains("utiliz")
                || id.contains("launch") || id.contains("dataloader");
    }

    /** The same finding with a "show on timeline" link. */
    FindingView withTimeline(String href, String text) {
        return new FindingView(anchor, severity, severityIcon, severityRank, ruleId, ruleName, category, subjectKind, subject,
                problem, problemShort, recommendation, evidence, location, helpHref, helpText, fingerprint, impact, impactSaving,
                impactModel, impactShare, rows, href, text);
    }

    /** Icons next to the severity word, so severity is never told by colour alone. */
    static String icon(Severity s) {
        return switch (s == null ? Severity.WARNING : s) {
            case ERROR -> "\u2716";
            case WARNING -> "\u25B2";
            case NOTE -> "\u25CF";
        };
    }

    private static String location(StackFrame fr) {
        if (fr == null || fr.file() == null) return null;
        String where = fr.line() > 0 ? fr.file() + ":" + fr.line() : fr.file();
        return Text.clean(fr.function() == null || fr.function().isBlank() ? where : where + " in " + fr.function());
    }

    /** Evidence values formatted by type; keys ending in Ns/Pct/Bytes get units. */
    static List<Metric> evidence(Map<String, Object> raw) {
        List<Metric> out = new ArrayList<>();
        if (raw == null) return out;
        int shown = 0;
        // records, enums, non-finite numbers become plain values, as in the JSON report
        for (Map.Entry<String, Object> e : EvidenceValues.normalize(raw).entrySet()) {
            if (++shown > 50) break;
            String key = Text.cell(e.getKey());
            Object v = e.getValue();
            String k = e.getKey() == null ? "" : e.getKey().toLowerCase(Locale.ROOT);
            String text;
            if (v instanceof Number n) {
                if (k.endsWith("ns")) text = Units.duration(n.doubleValue()) + " (" + Units.number(n) + " ns)";
                // a coefficient of variation is a ratio, not a share: a multiple of the mean beyond 100 %
                else if (k.endsWith("variationpct")) text = dlproflint.facts.Percent.variationText(n.doubleValue());
                else if (k.endsWith("pct") || k.endsWith("percent")) text = Units.share(n.doubleValue());
                else if (k.endsWith("bytes")) text = Units.memory(n.longValue());
                else text = Units.number(n);
            } else {
                text = Text.truncate(Text.clean(Formats.value(v)), 500);
            }
            out.add(Metric.of(key, text));
        }
        return out;
    }
}
