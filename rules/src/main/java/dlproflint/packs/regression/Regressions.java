package dlproflint.packs.regression;

import dlproflint.compare.DeltaText;
import dlproflint.facts.Comparison;
import dlproflint.facts.KernelDelta;
import dlproflint.facts.MetricDelta;
import dlproflint.facts.OpDelta;
import dlproflint.findings.Impact;
import dlproflint.findings.Units;

import java.util.Locale;

/** Message and impact helpers of the regression pack (numbers written with {@link Units}). */
public final class Regressions {
    private Regressions() {
    }

    /** "102.3 ms → 118.9 ms (+16.2%)" or, for shares, "71.0% → 52.4% (-18.6 points)". */
    public static String change(MetricDelta d) {
        return DeltaText.value(d, d.baseCenter()) + " → " + DeltaText.value(d, d.headCenter()) + " (" + DeltaText.relative(d) + ")";
    }

    /** How the change was judged: against the per-step noise, or as single values. */
    public static String basis(MetricDelta d) {
        if (d.samples() == 0) return "single values: the profiles were not split into steps";
        return String.format(Locale.ROOT, "medians of %d and %d steps; %s the run-to-run spread of %s",
                d.baseSamples(), d.headSamples(), times(d.worseBySpreads()), Units.duration(d.spread()))
                + (Double.isNaN(d.pValue()) ? "" : String.format(Locale.ROOT, "; rank test p = %.2g", d.pValue()));
    }

    /** "per step" or "per run". */
    public static String per(Comparison c) {
        return "step".equals(c.basis()) ? "per step" : "per run";
    }

    /** "3.0×", "a new op" when it had no time before. */
    public static String ratio(double r) {
        return Double.isInfinite(r) ? "new" : String.format(Locale.ROOT, "%.1f×", r);
    }

    /** "5.5×" for a finite multiple, "far above" when there was no spread to compare with. */
    public static String times(double spreads) {
        return Double.isInfinite(spreads) ? "far above" : String.format(Locale.ROOT, "%.1f×", spreads);
    }

    public static String duration(double ns) {
        return Units.duration(ns);
    }

    public static String pct(double pct) {
        return Units.pct(pct);
    }
}
