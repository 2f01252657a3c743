package dlproflint.extract.kineto;

import java.util.Arrays;

/**
 * The union of a set of intervals as disjoint sorted segments with running totals, so the covered time
 * inside any window is two binary searches: per-iteration coverage costs (intervals + iterations) × log,
 * where sweeping all intervals for every iteration cost their product.
 */
final class CoveredTime {
    private final long[] from;
    private final long[] to;
    /** {@code before[i]}: covered time of segments 0..i-1. */
    private final long[] before;

    private CoveredTime(long[] from, long[] to, long[] before) {
        this.from = from;
        this.to = to;
        this.before = before;
    }

    /** @param starts sorted start times; {@code ends} sorted end times of the same intervals */
    static CoveredTime of(long[] starts, long[] ends) {
        int n = starts.length;
        long[] f = new long[n];
        long[] t = new long[n];
        int segs = 0;
        int si = 0;
        int ei = 0;
        int active = 0;
        long segStart = 0;
        while (si < n || ei < n) {
            if (si < n && starts[si] <= ends[ei]) {
                if (active++ == 0) segStart = starts[si];
                si++;
            } else {
                if (--active == 0 && ends[ei] > segStart) {
                    f[segs] = segStart;
                    t[segs++] = ends[ei];
                }
                ei++;
            }
        }
        long[] before = new long[segs + 1];
        for (int i = 0; i < segs; i++) before[i + 1] = before[i] + (t[i] - f[i]);
        return new CoveredTime(Arrays.copyOf(f, segs), Arrays.copyOf(t, segs), before);
    }

    /** Covered time inside [lo, hi). */
    long within(long lo, long hi) {
        if (hi <= lo || from.length == 0) return 0;
        int first = firstEndingAfter(lo);
        int last = lastStartingBefore(hi);
        if (first > last) return 0;
        long total = before[last + 1] - before[first];
        total -= Math.max(0, lo - from[first]);
        total -= Math.max(0, to[last] - hi);
        return Math.max(0, total);
    }

    private int firstEndingAfter(long t) {
        int i = Arrays.binarySearch(to, t);
        return i >= 0 ? i + 1 : -i - 1;
    }

    private int lastStartingBefore(long t) {
        int i = Arrays.binarySearch(from, t);
        return (i >= 0 ? i : -i - 1) - 1;
    }
}
