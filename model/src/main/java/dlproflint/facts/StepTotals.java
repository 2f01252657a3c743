package dlproflint.facts;

import java.util.Collection;

/**
 * The aggregated iterations summed up, for rules that speak per step: how many, how long, and how much of
 * that time went to DataLoader calls, host synchronisation and an idle GPU. A part no iteration measured is
 * unknown ({@code -1}), not zero.
 */
public record StepTotals(int steps, long durationNs, long dataLoaderNs, long syncNs, long gpuIdleNs) {

    /** Sums the aggregated {@link Iteration}s among {@code facts} (other objects are ignored). */
    public static StepTotals of(Collection<?> facts) {
        int n = 0;
        long dur = 0;
        long dl = -1;
        long sync = -1;
        long idle = -1;
        for (Object o : facts) {
            if (!(o instanceof Iteration it) || !it.aggregated()) continue;
            n++;
            dur += it.durationNs();
            dl = add(dl, it.dataLoaderNs());
            sync = add(sync, it.syncNs());
            idle = add(idle, it.gpuIdleNs());
        }
        return new StepTotals(n, dur, dl, sync, idle);
    }

    private static long add(long total, long part) {
        if (part < 0) return total;
        return (total < 0 ? 0 : total) + part;
    }

    /** Mean per step of a total ({@code -1} stays unknown). */
    public double perStep(long total) {
        return total < 0 || steps == 0 ? -1 : (double) total / steps;
    }

    /** A total as a share of the steps' time, 0..100 ({@code -1} unknown). */
    public double pctOfSteps(long total) {
        return total < 0 || durationNs <= 0 ? -1 : Math.min(100, 100.0 * total / durationNs);
    }

    /** Enough steps to speak per step: two or more. */
    public boolean perStepMeaningful() {
        return steps >= 2;
    }
}
