package dlproflint.findings;

import dlproflint.facts.IterationSummary;

/**
 * What a finding's problem costs, estimated by its rule from the facts: the time lost, per training step when
 * the profile was split into steps, else over the analysed range; the share of that step or range; and the part
 * of it a fix can recover. Findings are ranked by the share a fix
 * recovers, and their severity follows from it ({@link SeverityThresholds}).
 *
 * @param lostNs   time the problem costs, per step ({@link Basis#STEP}) or over the analysed range ({@link Basis#RUN})
 * @param basis    what {@code lostNs} and {@code savingNs} are measured against
 * @param periodNs the mean step duration ({@code STEP}) or the analysed range's duration ({@code RUN})
 * @param savingNs the part of {@code lostNs} a fix can be expected to recover (at most {@code lostNs})
 * @param model    the estimate behind the numbers in a few words, e.g. {@code "host-blocked time of the sync calls"};
 *                 the rule's help page explains it
 */
public record Impact(double lostNs, Basis basis, double periodNs, double savingNs, String model)
        implements java.io.Serializable {
    /** What the impact is measured against. */
    public enum Basis {
        /** per training step, over the aggregated iterations */
        STEP,
        /** over the analysed range (the profile had no steps) */
        RUN
    }

    public Impact {
        if (basis == null) throw new IllegalArgumentException("impact needs a basis");
        lostNs = finiteNonNegative(lostNs);
        periodNs = finiteNonNegative(periodNs);
        savingNs = Math.min(finiteNonNegative(savingNs), lostNs);
        model = model == null ? "" : model;
    }

    private static double finiteNonNegative(double v) {
        return Double.isFinite(v) && v > 0 ? v : 0;
    }

    /** {@code lostNs} per step of {@code stepNs}. */
    public static Impact perStep(double lostNs, double stepNs, double savingNs, String model) {
        return new Impact(lostNs, Basis.STEP, stepNs, savingNs, model);
    }

    /** {@code lostNs} over an analysed range of {@code rangeNs}. */
    public static Impact overRun(double lostNs, double rangeNs, double savingNs, String model) {
        return new Impact(lostNs, Basis.RUN, rangeNs, savingNs, model);
    }

    /**
     * From totals over the aggregated range: per step when the profile was split into aggregated iterations
     * with a known mean duration, else over the range.
     *
     * @param lostTotalNs   time lost over the aggregated range
     * @param savingTotalNs the part of it a fix recovers
     * @param rangeNs       the aggregated range's duration (the wall clock the breakdown is measured against)
     */
    public static Impact fromTotal(double lostTotalNs, double savingTotalNs, IterationSummary iterations,
                                   double rangeNs, String model) {
        int steps = iterations == null ? 0 : iterations.aggregated();
        if (steps >= 1 && iterations.avgDurationNs() > 0 && iterations.total() > 1) {
            return perStep(lostTotalNs / steps, iterations.avgDurationNs(), savingTotalNs / steps, model);
        }
        return overRun(lostTotalNs, rangeNs, savingTotalNs, model);
    }

    /** Share of the step (or range) lost, 0..100. */
    public double sharePct() {
        // an estimate of time lost inside the period; estimates can overshoot, the share cannot
        return dlproflint.facts.Percent.of(lostNs, periodNs);
    }

    /** Share of the step (or range) a fix recovers, 0..100. */
    public double savingPct() {
        return dlproflint.facts.Percent.of(savingNs, periodNs);
    }

    /**
     * The impact shows as nothing: under half a nanosecond lost, or under 0.05% of a known step (or range), "0.0%" at
     * one decimal. A rule whose cost
     * rounds to zero has nothing to report (a launch wait on kernels replayed from a CUDA graph); a rule that cannot
     * measure a cost reports no impact and says so instead.
     */
    public boolean roundsToZero() {
        if (lostNs < 0.5) return true;
        // without a period (a hand-made fact, a profile without a wall clock) the share says nothing
        return periodNs > 0 && sharePct() < 0.05;
    }

    /**
     * SARIF {@code rank} (0..100): the share of the step or range a fix recovers, rounded. The same share orders
     * findings ({@link FindingOrder}) and decides their severity ({@link SeverityThresholds}), so every report agrees.
     */
    public int rank() {
        return (int) Math.round(savingPct());
    }
}
