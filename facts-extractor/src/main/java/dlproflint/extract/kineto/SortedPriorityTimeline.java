package dlproflint.extract.kineto;

/**
 * Flattens overlapping activity of several categories into disjoint time, giving every instant to
 * the highest-priority category active then (DLProf's breakdown: tensor-core kernels, other kernels,
 * memory, dataloader, I/O, CPU, other). Coverage only depends on the multisets of start and end
 * times, so each category is two sorted arrays; no interval objects. Unlike the nsys reader's
 * {@link dlproflint.extract.common.PriorityTimeline}, which sweeps start-sorted query streams, this works on
 * the Kineto reader's buffered columns: a trace file is not ordered by time.
 */
final class SortedPriorityTimeline {
    private final long[][] starts;
    private final long[][] ends;

    /** @param starts per category (index 0 = highest priority), sorted start times; same for ends */
    SortedPriorityTimeline(long[][] starts, long[][] ends) {
        this.starts = starts;
        this.ends = ends;
    }

    /** Time per category inside [from, to]; the last slot (index = categories) is uncovered time. */
    long[] flatten(long from, long to) {
        int n = starts.length;
        long[] out = new long[n + 1];
        if (to <= from) return out;
        int[] si = new int[n];
        int[] ei = new int[n];
        int[] active = new int[n];
        long t = Long.MIN_VALUE;
        while (true) {
            long next = Long.MAX_VALUE;
            for (int c = 0; c < n; c++) {
                if (si[c] < starts[c].length) next = Math.min(next, starts[c][si[c]]);
                if (ei[c] < ends[c].length) next = Math.min(next, ends[c][ei[c]]);
            }
            if (t != Long.MIN_VALUE) {
                long segEnd = next == Long.MAX_VALUE ? to : next;
                long a = Math.max(t, from);
                long b = Math.min(segEnd, to);
                if (b > a) out[top(active)] += b - a;
            }
            if (next == Long.MAX_VALUE) break;
            for (int c = 0; c < n; c++) {
                while (si[c] < starts[c].length && starts[c][si[c]] == next) {
                    active[c]++;
                    si[c]++;
                }
                while (ei[c] < ends[c].length && ends[c][ei[c]] == next) {
                    active[c]--;
                    ei[c]++;
                }
            }
            t = next;
        }
        // time before the first event and after the last one is uncovered
        long covered = 0;
        for (int c = 0; c < n; c++) covered += out[c];
        out[n] = (to - from) - covered;
        return out;
    }

    private static int top(int[] active) {
        for (int c = 0; c < active.length; c++) {
            if (active[c] > 0) return c;
        }
        return active.length;
    }
}
