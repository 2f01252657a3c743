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
        return flatten(new long[] {from, Math.max(from, to)})[0];
    }

    /**
     * Time per category in each window {@code [bounds[k], bounds[k + 1])} (ascending), one sweep for all of them; the
     * last slot of each window's row is its uncovered time.
     */
    long[][] flatten(long[] bounds) {
        int n = starts.length;
        int windows = Math.max(0, bounds.length - 1);
        long[][] out = new long[windows][n + 1];
        if (windows == 0) return out;
        int[] si = new int[n];
        int[] ei = new int[n];
        int[] active = new int[n];
        long t = Long.MIN_VALUE;
        int w = 0;
        while (true) {
            long next = Long.MAX_VALUE;
            for (int c = 0; c < n; c++) {
                if (si[c] < starts[c].length) next = Math.min(next, starts[c][si[c]]);
                if (ei[c] < ends[c].length) next = Math.min(next, ends[c][ei[c]]);
            }
            int top = top(active);
            if (t != Long.MIN_VALUE && top < n) {
                long segEnd = next == Long.MAX_VALUE ? bounds[windows] : next;
                while (w + 1 < windows && bounds[w + 1] <= t) w++;
                for (int k = w; k < windows && bounds[k] < segEnd; k++) {
                    long a = Math.max(t, bounds[k]);
                    long b = Math.min(segEnd, bounds[k + 1]);
                    if (b > a) out[k][top] += b - a;
                }
            }
            if (next == Long.MAX_VALUE || next >= bounds[windows] && top == n) break;
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
        for (int k = 0; k < windows; k++) {
            long covered = 0;
            for (int c = 0; c < n; c++) covered += out[k][c];
            out[k][n] = Math.max(0, bounds[k + 1] - bounds[k] - covered);
        }
        return out;
    }

    private static int top(int[] active) {
        for (int c = 0; c < active.length; c++) {
            if (active[c] > 0) return c;
        }
        return active.length;
    }
}
