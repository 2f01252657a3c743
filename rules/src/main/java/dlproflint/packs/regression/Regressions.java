package dlproflint.packs.regression;

import dlproflint.compare.DeltaText;
import dlproflint.compare.RunComparison;
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

    /**
     * Whether a step-time change is the host's alone: one capture a side, and the kernel time per step (what the GPU
     * ran) grew by less than {@code minPct} of the base step (or not at all). False where the split is unknown.
     */
    public static boolean hostGapsOnly(Comparison c, MetricDelta step, double minPct) {
        if (step.betweenRuns()) return false;
        MetricDelta k = c.metric(RunComparison.KERNEL_TIME);
        return k != null && k.present() && k.worseBy() < minPct / 100.0 * Math.abs(step.baseCenter());
    }

    /** The per-step value of a part of the comparison ({@code gpu-kernel-time}, {@code host-gaps}): "10.0 ms → 10.1 ms (+1.0%)". */
    public static String part(Comparison c, String metric) {
        MetricDelta d = c.metric(metric);
        return d == null || !d.present() ? "not measured" : change(d);
    }

    /** The base's (or head's) per-step center of a part of the comparison, NaN when it was not measured. */
    public static double center(Comparison c, String metric, boolean base) {
        MetricDelta d = c.metric(metric);
        return d == null ? Double.NaN : base ? d.baseCenter() : d.headCenter();
    }

    /** How the change was judged: against the noise between runs or between steps, or as single values. */
    public static String basis(MetricDelta d) {
        if (d.betweenRuns()) {
            return String.format(Locale.ROOT, "medians of %d and %d runs (%d and %d steps); %s the between-run spread of %s",
                    d.baseRuns(), d.headRuns(), d.baseSamples(), d.headSamples(), times(d.worseBySpreads()), Units.duration(d.spread()))
                    + (Double.isNaN(d.pValue()) ? "" : String.format(Locale.ROOT, "; rank test of the runs p = %.2g", d.pValue()));
        }
        if (d.samples() == 0) return "single values: the profiles were not split into steps";
        return String.format(Locale.ROOT, "medians of %d and %d steps; %s the run-to-run spread of %s",
                d.baseSamples(), d.headSamples(), times(d.worseBySpreads()), Units.duration(d.spread()))
                + (Double.isNaN(d.pValue()) ? "" : String.format(Locale.ROOT, "; rank test p = %.2g", d.pValue()));
    }

    /** What a slower step costs: the median shift per step (or over the run). */
    public static Impact impact(Comparison c, MetricDelta d) {
        double lost = Math.max(0, d.worseBy());
        return "step".equals(c.basis()) ? Impact.perStep(lost, d.baseCenter(), lost, "median step-time shift against the base run")
                : Impact.overRun(lost, d.baseCenter(), lost, "run-time shift against the base run");
    }

    public static Impact impact(Comparison c, OpDelta d) {
        return growth(c, d.growthNs(), d.baseStepNs(), "the op's GPU time per step, head minus base");
    }

    public static Impact impact(Comparison c, KernelDelta d) {
        return growth(c, d.growthNs(), d.baseStepNs(), "the kernel's GPU time per step, head minus base");
    }

    private static Impact growth(Comparison c, double growthNs, double periodNs, String model) {
        double lost = Math.max(0, growthNs);
        return "step".equals(c.basis()) ? Impact.perStep(lost, periodNs, lost, model) : Impact.overRun(lost, periodNs, lost, model);
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
