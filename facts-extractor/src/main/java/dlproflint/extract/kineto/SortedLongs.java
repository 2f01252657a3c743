package dlproflint.extract.kineto;

/** Counting in sorted {@code long[]} arrays by binary search. */
final class SortedLongs {
    private SortedLongs() {
    }

    /** Values strictly below {@code t}. */
    static int below(long[] sorted, long t) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < t) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** Values at or below {@code t}. */
    static int atOrBelow(long[] sorted, long t) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= t) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** Values in the open interval (from, to). */
    static int between(long[] sorted, long from, long to) {
        return Math.max(0, below(sorted, to) - atOrBelow(sorted, from));
    }
}
