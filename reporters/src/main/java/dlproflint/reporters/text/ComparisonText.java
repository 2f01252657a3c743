package dlproflint.reporters.text;

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
 * The text report's summary of {@code compare}: the two runs, the key metrics side by side, the ops whose GPU time
 * per step grew most, and the kernels that appeared or vanished.
 */
final class ComparisonText {
    /** Rows of each list; the JSON report has them all. */
    static final int TOP = 5;

    private ComparisonText() {
    }

    static List<String> lines(Comparison c) {
        List<String> out = new ArrayList<>();
        out.add("compared with " + TerminalText.line(c.basePath()) + " [" + TerminalText.line(c.baseFormat()) + "]: "
                + ("step".equals(c.basis()) ? c.baseSteps() + " vs " + c.headSteps() + " steps (values per step)"
                : "values per run (a profile was not split into steps)"));
        if (c.severalRuns()) {
            out.add(c.basePaths().size() + " base and " + c.headPaths().size() + " head captures: step times judged"
                    + " between runs; ops and kernels on each side's median run (by step time), this one and "
                    + TerminalText.line(c.basePath()));
        }
        out.add(c.sharedCount() + " of " + c.baseCount() + " base and " + c.headCount() + " head " + c.matchedBy()
                + " in common, " + Units.pct(c.overlapPct()) + " of the GPU time"
                + (c.related() ? "" : ": NOT runs of the same model, nothing judged"));
        out.add(String.format(Locale.ROOT, "  %-18s %12s %12s  %s", "metric", "base", "head", "change"));
        for (MetricDelta d : c.metrics()) {
            out.add(String.format(Locale.ROOT, "  %-18s %12s %12s  %s", d.metric(), DeltaText.side(d, d.base(), d.baseCenter()),
                    DeltaText.side(d, d.head(), d.headCenter()), change(d)));
        }
        List<OpDelta> grown = c.ops().stream().filter(o -> o.growthNs() > 0 && !o.unassociated()).limit(TOP).toList();
        if (!grown.isEmpty()) {
            out.add("ops whose GPU time per step grew most:");
            for (OpDelta o : grown) {
                out.add("  " + TerminalText.line(o.key()) + ": " + Units.duration(o.baseNs()) + " → " + Units.duration(o.headNs())
                        + " (+" + Units.duration(o.growthNs()) + (Double.isInfinite(o.ratio()) ? ", new" : String.format(Locale.ROOT, ", %.1f×", o.ratio())) + ")");
            }
        }
        kernels(out, "kernels that appeared:", c.kernels().stream().filter(KernelDelta::appeared).toList(), true);
        kernels(out, "kernels that vanished:", c.kernels().stream().filter(KernelDelta::vanished)
                .sorted((a, b) -> Double.compare(b.baseNs(), a.baseNs())).toList(), false);
        return out;
    }

    private static void kernels(List<String> out, String title, List<KernelDelta> ks, boolean head) {
        if (ks.isEmpty()) return;
        out.add(title + " " + ks.size());
        for (KernelDelta k : ks.subList(0, Math.min(TOP, ks.size()))) {
            out.add("  " + TerminalText.line(k.key()) + ": " + Units.duration(head ? k.headNs() : k.baseNs()) + " per step"
                    + ((head ? k.headTc() : k.baseTc()) ? ", tensor cores" : ""));
        }
        if (ks.size() > TOP) out.add("  ... and " + (ks.size() - TOP) + " more (JSON report: comparison.kernels)");
    }

    private static String change(MetricDelta d) {
        if (!d.present()) return "not compared (a profile lacks it)";
        String spreads = DeltaText.spreads(d);
        String verdict = DeltaText.verdict(d);
        return DeltaText.relative(d) + (spreads == null ? "" : " (" + spreads + " spread, " + DeltaText.noise(d) + ")")
                + (verdict.equals("same") ? "" : " " + verdict);
    }
}
