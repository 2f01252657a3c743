package dlproflint.extract.common;

import dlproflint.detail.MemoryCurve;
import dlproflint.detail.TimelineWindow;
import dlproflint.facts.Iteration;
import dlproflint.facts.ProfileFacts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which part of a profile the HTML Timeline view draws, decided from the facts alone so every reader draws the same
 * one: the aggregated step of median duration (a typical steady step: not the warm-up, not the slowest) with the step
 * before and after it. A profile without steps is drawn from its start.
 *
 * @param startNs first instant drawn (trace time, as the iterations)
 * @param endNs   last instant drawn
 * @param focus   the chosen step's index, -1 without steps
 * @param steps   the steps in the window
 * @param why     how it was chosen, for the view
 */
public record DetailWindow(long startNs, long endNs, int focus, List<TimelineWindow.Step> steps, String why) {
    public static DetailWindow of(ProfileFacts facts) {
        List<Iteration> its = facts.iterations();
        List<Iteration> aggregated = its.stream().filter(Iteration::aggregated).toList();
        List<Iteration> pool = aggregated.isEmpty() ? its : aggregated;
        if (pool.isEmpty() || its.size() < 2 && pool.get(0).endNs() <= pool.get(0).startNs()) {
            // the earliest operations, whatever their time base
            return new DetailWindow(Long.MIN_VALUE, Long.MAX_VALUE, -1, List.of(),
                    "the profile has no steps: its first " + TimelineWindow.MAX_SPANS + " operations");
        }
        List<Iteration> byLength = new ArrayList<>(pool);
        byLength.sort(Comparator.comparingLong((Iteration i) -> i.endNs() - i.startNs()).thenComparingInt(Iteration::index));
        Iteration focus = byLength.get(byLength.size() / 2);
        int at = its.indexOf(focus);
        List<TimelineWindow.Step> steps = new ArrayList<>();
        for (int i = Math.max(0, at - 1); i <= Math.min(its.size() - 1, at + 1); i++) {
            steps.add(new TimelineWindow.Step(its.get(i).index(), its.get(i).startNs(), its.get(i).endNs()));
        }
        return new DetailWindow(steps.get(0).startNs(), steps.get(steps.size() - 1).endNs(), focus.index(), steps,
                "step " + focus.index() + ", the aggregated step of median duration, with its neighbours");
    }

    public boolean contains(long start, long end) {
        return end >= startNs && start <= endNs;
    }

    /** A curve reduced to at most {@link MemoryCurve#MAX_POINTS} points, each the highest of the points it stands for. */
    public static long[][] reduce(long[] t, long[] a, long[] r, int n) {
        int max = MemoryCurve.MAX_POINTS;
        if (n <= max) return new long[][] {java.util.Arrays.copyOf(t, n), java.util.Arrays.copyOf(a, n), java.util.Arrays.copyOf(r, n)};
        long[] tt = new long[max];
        long[] aa = new long[max];
        long[] rr = new long[max];
        for (int b = 0; b < max; b++) {
            int from = (int) ((long) b * n / max);
            int to = (int) ((long) (b + 1) * n / max);
            int best = from;
            for (int i = from; i < to; i++) if (a[i] > a[best]) best = i;
            long rMax = r[from];
            for (int i = from; i < to; i++) rMax = Math.max(rMax, r[i]);
            tt[b] = t[best];
            aa[b] = a[best];
            rr[b] = rMax;
        }
        return new long[][] {tt, aa, rr};
    }
}
