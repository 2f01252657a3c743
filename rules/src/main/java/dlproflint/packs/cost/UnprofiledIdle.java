package dlproflint.packs.cost;

import dlproflint.facts.IdleBreakdown;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.Percent;
import dlproflint.findings.Impact;

import java.util.Collection;

/**
 * A stream's idle time per step ({@link IdleBreakdown}) as the loop would have it without the profiler's own host
 * cost. The capture slows the host, not the GPU: a host-bound loop's profiled step is longer than the real one by
 * what the profiler's callbacks cost ({@link dlproflint.facts.ProfilerOverhead}: the measurement layer's replay of the
 * steps without them), and the GPU, whose work is unchanged, spends all of that excess waiting for the host. So the
 * stream idles the replayed step less its busy time; what it loses comes off the host wait, and kernel waits (queued
 * work, launch latency on the GPU) and other waits keep their time, as far as the step has room for them (below). The short host
 * waits between launches ({@link IdleBreakdown#launchHostWaitNs}) shrink in the same proportion as the host wait: the
 * profiler's cost is per recorded event, and the launches are events.
 *
 * <p>Checked on {@code pytorch-h200-2026}, where the unprofiled step is measured: the GPU idle per step this gives is
 * closer to the measured step less the GPU's busy time than the profiled idle in three cases of four with a step label
 * ({@code H200SavingsAcceptanceTest}): 6 points of the step off at the median, against 20 as profiled.
 *
 * <p>Without a {@link dlproflint.facts.ProfilerOverhead} (nsys exports, DLProf databases, a trace whose overhead could not be
 * estimated) or without steps, the breakdown as measured, over the stream's span.
 *
 * <p>The stream's idle and busy time never add up to more than the replayed step: the replay starts each kernel as soon
 * as it is launched and its stream is free, so waits with work already queued (kernel waits and other waits: a
 * dependency on another stream, or a trace whose GPU clock was moved) cannot keep all their profiled time in a step the
 * replay shortened. Where they would, they shrink in proportion ({@code waitScale}) to what the step leaves beside the
 * busy time, and the host wait is then none.
 *
 * @param breakdown      the breakdown as measured
 * @param step           the step without the profiler's host cost, or not corrected
 * @param hostWaitNs     host wait per step without the capture's excess (corrected), else over the range
 * @param launchHostWaitNs short host waits per step, in proportion
 * @param waitScale      the share of their profiled time kernel waits and other waits keep per step (corrected only), 0..1
 */
public record UnprofiledIdle(IdleBreakdown breakdown, UnprofiledStep step, double hostWaitNs, double launchHostWaitNs,
                             double waitScale) {

    /** The breakdown without the capture's host cost where the facts allow it, else as measured. */
    public static UnprofiledIdle of(IdleBreakdown i, IterationSummary s, Collection<?> overheads) {
        UnprofiledStep u = UnprofiledStep.of(s, overheads);
        if (!u.corrected()) return new UnprofiledIdle(i, u, i.hostWaitNs(), i.launchHostWaitNs(), 1);
        // the stream's busy time per step is what the profiler does not change: without its host cost the stream idles
        // the rest of the replayed step (its span need not cover the whole step: a loader-bound loop's first batch)
        double k = u.steps();
        double busy = (i.spanNs() - i.idleNs()) / k;
        double hostWait = i.hostWaitNs() / k;
        double queued = (i.kernelWaitNs() + i.otherNs()) / k;
        double room = Math.max(0, u.stepNs() - busy);
        double waitScale = queued > room ? room / queued : 1;
        double left = Math.max(0, Math.min(hostWait, room - queued * waitScale));
        double launch = hostWait <= 0 ? 0 : i.launchHostWaitNs() / k * (left / hostWait);
        return new UnprofiledIdle(i, u, left, launch, waitScale);
    }

    /**
     * The breakdown of the stream that ran the most GPU time among {@code idles} (the profile's busiest), as
     * {@link #of}; null without one.
     */
    public static UnprofiledIdle busiest(Collection<?> idles, IterationSummary s, Collection<?> overheads) {
        IdleBreakdown best = null;
        for (Object o : idles) {
            if (o instanceof IdleBreakdown i && (best == null || i.busyNs() > best.busyNs())) best = i;
        }
        return best == null ? null : of(best, s, overheads);
    }

    /** The profiler's host cost was taken out (a replayed step to measure against). */
    public boolean corrected() {
        return step.corrected();
    }

    /** The step the shares are of without the profiler's host cost (corrected only). */
    public double stepNs() {
        return step.stepNs();
    }

    /** The host wait per step the capture added (corrected only). */
    public double excessNs() {
        return step.excessNs();
    }

    private double perStep(long totalNs) {
        return totalNs / (double) step.steps();
    }

    /** Kernel waits per step without the capture's host cost (corrected only). */
    private double kernelWaitPerStep() {
        return perStep(breakdown.kernelWaitNs()) * waitScale;
    }

    /** Other waits per step without the capture's host cost (corrected only). */
    private double otherWaitPerStep() {
        return perStep(breakdown.otherNs()) * waitScale;
    }

    /**
     * What the capture left of the launch gaps (short host waits and kernel waits), 0..1: gaps of that kind measured
     * elsewhere (after short kernels) shrink in the same proportion; 1 when not corrected.
     */
    public double launchGapRatio() {
        if (!corrected()) return 1;
        double before = perStep(breakdown.launchHostWaitNs() + breakdown.kernelWaitNs());
        return before <= 0 ? 1 : Math.min(1, launchGapNs() / before);
    }

    /** Idle per step without the capture's host cost (corrected only). */
    public double idleNs() {
        return hostWaitNs + kernelWaitPerStep() + otherWaitPerStep();
    }

    /** Idle share: of the step without the capture's host cost, else of the stream's span as measured. */
    public double idlePct() {
        return corrected() ? Percent.of(idleNs(), stepNs()) : breakdown.idlePct();
    }

    /** Short host waits: of the step without the capture's host cost, else of the stream's span. */
    public double launchHostWaitPct() {
        return corrected() ? Percent.of(launchHostWaitNs, stepNs()) : breakdown.launchHostWaitPct();
    }

    /** Launch gaps (short host waits and kernel waits): of the step without the capture's host cost, else of the span. */
    public double launchGapPct() {
        if (!corrected()) return Percent.of(breakdown.launchHostWaitNs() + breakdown.kernelWaitNs(), breakdown.spanNs());
        return Percent.of(launchHostWaitNs + kernelWaitPerStep(), stepNs());
    }

    /** The largest of host wait, kernel wait and other, as corrected. */
    public String dominantCause() {
        if (!corrected()) return breakdown.dominantCause();
        double kw = kernelWaitPerStep();
        double ot = otherWaitPerStep();
        if (hostWaitNs >= kw && hostWaitNs >= ot) return "host wait";
        return kw >= ot ? "kernel wait" : "other";
    }

    /** The dominant cause's idle per step (corrected), or over the range (as measured). */
    double dominantNs() {
        String d = dominantCause();
        if (!corrected()) {
            IdleBreakdown i = breakdown;
            return "host wait".equals(d) ? i.hostWaitNs() : "kernel wait".equals(d) ? i.kernelWaitNs() : i.otherNs();
        }
        return "host wait".equals(d) ? hostWaitNs
                : "kernel wait".equals(d) ? kernelWaitPerStep() : otherWaitPerStep();
    }

    /** Short host waits and kernel waits: per step (corrected) or over the range. */
    double launchGapNs() {
        return corrected() ? launchHostWaitNs + kernelWaitPerStep()
                : breakdown.launchHostWaitNs() + breakdown.kernelWaitNs();
    }

    /** Short host waits: per step (corrected) or over the range. */
    double shortHostWaitNs() {
        return corrected() ? launchHostWaitNs : breakdown.launchHostWaitNs();
    }

    /**
     * The impact of {@code lostNs} and {@code savingNs} (per step when corrected, else totals over the aggregated range),
     * its model with what the correction took out.
     */
    Impact impact(double lostNs, double savingNs, IterationSummary s, dlproflint.facts.TimeBreakdown b, String model) {
        return step.perStep(lostNs, savingNs, s, b, model);
    }
}
