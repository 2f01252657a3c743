package dlproflint.extract.common;

/**
 * Counts of non-negative values in buckets of bounded relative width (exact below 128, then 64 buckets per power
 * of two: under 1.6% wide), so that a median of millions of values costs a few kilobytes.
 */
public final class LogHistogram {
    private static final int EXACT = 128;
    private static final int SUB = 64;
    private final long[] counts = new long[EXACT + 58 * SUB];
    private long total;

    public void add(long v) {
        counts[index(Math.max(0, v))]++;
        total++;
    }

    /** Adds another histogram's counts. */
    public void add(LogHistogram o) {
        for (int i = 0; i < counts.length; i++) counts[i] += o.counts[i];
        total += o.total;
    }

    public long count() {
        return total;
    }

    static int index(long v) {
        if (v < EXACT) return (int) v;
        int shift = 63 - Long.numberOfLeadingZeros(v) - 6; // v >> shift lies in [64, 128)
        return EXACT + (shift - 1) * SUB + (int) ((v >> shift) - SUB);
    }

    /** The smallest value of bucket {@code i}. */
    static long lowerBound(int i) {
        if (i < EXACT) return i;
        int shift = (i - EXACT) / SUB + 1;
        long mantissa = (i - EXACT) % SUB + SUB;
        return mantissa << shift;
    }

    /** The lower median (the ⌈n/2⌉-th smallest value), to the bucket's lower bound; 0 when empty. */
    public long median() {
        if (total == 0) return 0;
        long rank = (total + 1) / 2;
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) return lowerBound(i);
        }
        return lowerBound(counts.length - 1);
    }
}
