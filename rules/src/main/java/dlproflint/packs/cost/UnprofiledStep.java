package dlproflint.packs.cost;

import dlproflint.facts.IterationSummary;
import dlproflint.facts.ProfilerOverhead;
import dlproflint.facts.TimeBreakdown;
import dlproflint.findings.Impact;
import dlproflint.findings.Units;

import java.util.Collection;

/**
 * The step a host-bound symptom is judged on: the loop without the profiler's own host cost. The capture slows the
 * host, not the GPU, so a host-bound loop's profiled step is longer than the real one by what the profiler's callbacks
 * cost ({@link ProfilerOverhead}, the measurement layer's replay of the steps without them), and the GPU, whose work is
 * unchanged, spends all of that excess idle. GPU idle measured on the profiled loop loses the excess per step, and
 * its share is of the replayed step. Findings that claim GPU idle time from the same pool (the idle breakdown, launch
 * gaps, short kernels' gaps, GPU utilization) are all judged this way, so that {@code CauseLinks} compares like with
 * like.
 *
 * <p>Not corrected (every figure as measured, totals over the aggregated range) without a {@link ProfilerOverhead}
 * (nsys exports, DLProf databases, a trace whose overhead could not be estimated) or without steps.
 *
 * @param steps    aggregated steps the per-step figures divide by (0: not corrected)
 * @param stepNs   the replayed step without the profiler's host cost
 * @param excessNs the profiled step less the replayed one: the GPU idle per step the capture added
 */
public record UnprofiledStep(int steps, double stepNs, double excessNs) {
    /** The replayed step where the facts hold one, else not corrected. */
    public static UnprofiledStep of(IterationSummary s, Collection<?> overheads) {
        ProfilerOverhead o = null;
        if (overheads != null) {
            for (Object x : overheads) {
                if (x instanceof ProfilerOverhead p) o = p;
            }
        }
        // per step as Impact.fromTotal divides: the aggregated steps of a profile split into more than one
        int k = s == null ? 0 : s.aggregated();
        if (o == null || k < 1 || s.avgDurationNs() <= 0 || s.total() <= 1 || o.unprofiledStepNs() <= 0) {
            return new UnprofiledStep(0, 0, 0);
        }
        return new UnprofiledStep(k, o.unprofiledStepNs(), Math.max(0, o.profiledStepNs() - o.unprofiledStepNs()));
    }

    /** The profiler's host cost was taken out (a replayed step to measure against). */
    public boolean corrected() {
        return steps > 0;
    }

    /**
     * {@code lostNs} and {@code savingNs} already without the capture's host cost: per step on the replayed step when
     * corrected, else totals over the aggregated range ({@link Cost#ofTotal}).
     */
    Impact perStep(double lostNs, double savingNs, IterationSummary s, TimeBreakdown b, String model) {
        if (!corrected()) return Cost.ofTotal(lostNs, savingNs, s, b, model);
        return Impact.perStep(lostNs, stepNs, savingNs, model + note());
    }

    /**
     * GPU idle measured on the profiled loop, and the part of it a fix recovers, totals over the aggregated range: both
     * without the capture's excess per step (the host time it added is in both), on the replayed step.
     */
    public Impact idle(double lostTotalNs, double savingTotalNs, IterationSummary s, TimeBreakdown b, String model) {
        if (!corrected()) return Cost.ofTotal(lostTotalNs, savingTotalNs, s, b, model);
        double lost = Math.max(0, lostTotalNs / steps - excessNs);
        return perStep(lost, Math.min(Math.max(0, savingTotalNs / steps - excessNs), lost), s, b, model);
    }

    /** Launch gaps measured on the profiled loop (totals), in the proportion {@code ratio} the capture left of them. */
    public Impact scaled(double lostTotalNs, double savingTotalNs, double ratio, IterationSummary s, TimeBreakdown b,
                         String model) {
        if (!corrected()) return Cost.ofTotal(lostTotalNs, savingTotalNs, s, b, model);
        return perStep(lostTotalNs / steps * ratio, savingTotalNs / steps * ratio, s, b, model);
    }

    /** What the cost model says of the correction. */
    private String note() {
        return "; without the profiler's own host cost: the capture added " + Units.duration(excessNs)
                + " of GPU idle per step, taken out, and the step is the " + Units.duration(stepNs)
                + " the loop takes without it";
    }
}
