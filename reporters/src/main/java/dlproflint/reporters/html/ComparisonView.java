package dlproflint.reporters.html;

import dlproflint.compare.DeltaText;
import dlproflint.facts.Comparison;
import dlproflint.facts.KernelDelta;
import dlproflint.facts.MetricDelta;
import dlproflint.facts.OpDelta;
import dlproflint.findings.Units;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code compare}'s view of a head profile against its base, for the HTML report: the key metrics side by side, and
 * every op and kernel whose GPU time per step changed, as tables the report's script can sort (the rows are
 * rendered on the server, so the view reads without scripts).
 */
public record ComparisonView(String basePath, String baseFormat, String basis, String overlap, boolean related,
                             List<MetricRow> metrics, List<DeltaRow> ops, List<DeltaRow> kernels, int moreOps,
                             int moreKernels) {
    /** Rows per table; the JSON report has them all. */
    static final int MAX_ROWS = 100;

    public record MetricRow(String metric, String base, String head, String change, String verdict) {
    }

    /** One op or kernel: sort keys (ns, raw numbers) next to the shown text. */
    public record DeltaRow(String name, String base, double baseNs, String head, double headNs, String growth,
                           double growthNs, String status) {
    }

    static ComparisonView of(Comparison c) {
        if (c == null) return null;
        List<MetricRow> metrics = new ArrayList<>();
        for (MetricDelta d : c.metrics()) {
            String spreads = DeltaText.spreads(d);
            metrics.add(new MetricRow(d.metric(), DeltaText.side(d, d.base(), d.baseCenter()),
                    DeltaText.side(d, d.head(), d.headCenter()),
                    !d.present() ? "\u2014" : DeltaText.relative(d) + (spreads == null ? "" : " (" + spreads + " spread)"),
                    DeltaText.verdict(d)));
        }
        List<DeltaRow> ops = new ArrayList<>();
        for (OpDelta o : c.ops()) {
            if (ops.size() == MAX_ROWS) break;
            ops.add(new DeltaRow(Text.clean(o.key()), Units.duration(o.baseNs()), o.baseNs(), Units.duration(o.headNs()),
                    o.headNs(), growth(o.growthNs(), o.ratio()), o.growthNs(),
                    o.baseNs() <= 0 ? "new" : o.headNs() <= 0 ? "gone" : ""));
        }
        List<DeltaRow> kernels = new ArrayList<>();
        for (KernelDelta k : c.kernels()) {
            if (kernels.size() == MAX_ROWS) break;
            String tc = k.baseTc() == k.headTc() ? "" : k.headTc() ? "now on tensor cores" : "no longer on tensor cores";
            kernels.add(new DeltaRow(Text.clean(k.key()), Units.duration(k.baseNs()), k.baseNs(), Units.duration(k.headNs()),
                    k.headNs(), growth(k.growthNs(), k.ratio()),
                    k.growthNs(), (k.appeared() ? "appeared" : k.vanished() ? "vanished" : "") + (tc.isEmpty() ? "" : " " + tc)));
        }
        return new ComparisonView(Text.clean(c.basePath()), Text.orDash(c.baseFormat()),
                "step".equals(c.basis()) ? c.baseSteps() + " vs " + c.headSteps() + " steps; values per step"
                        : "values per run (a profile was not split into steps)",
                c.sharedCount() + " of " + c.baseCount() + " base and " + c.headCount() + " head " + c.matchedBy()
                        + " in common, " + Units.pct(c.overlapPct()) + " of the GPU time",
                c.related(), metrics, ops, kernels, Math.max(0, c.ops().size() - MAX_ROWS),
                Math.max(0, c.kernels().size() - MAX_ROWS));
    }

    private static String growth(double ns, double ratio) {
        String sign = ns >= 0 ? "+" : "\u2212";
        return sign + Units.duration(Math.abs(ns)) + (Double.isInfinite(ratio) ? "" : String.format(Locale.ROOT, " (%.2f\u00d7)", ratio));
    }
}
