package dlproflint.facts;

import java.util.List;

/**
 * How long the kernels of the analysed range (the aggregated steps) ran, as a bounded histogram: the short
 * kernel analyses of HTA and TraceLens (TraceLens calls a kernel short under 10 µs). Absent when the profile
 * has no kernels.
 *
 * @param buckets bounds 1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 500, 1000 µs and the rest, in that order
 */
public record KernelDurations(long kernels, long totalNs, List<DurationBucket> buckets) {
    /** Exclusive upper bounds of the buckets, in ns; the last bucket has no bound. */
    public static final long[] BOUNDS_NS = {1_000, 2_000, 3_000, 5_000, 10_000, 20_000, 30_000, 50_000, 100_000,
            200_000, 500_000, 1_000_000};

    public KernelDurations {
        buckets = buckets == null ? List.of() : List.copyOf(buckets);
    }

    /** Kernels shorter than {@code us} (rounded down to a bucket bound). */
    public long shortKernels(double us) {
        long n = 0;
        for (DurationBucket b : buckets) if (b.upToNs() <= us * 1000) n += b.kernels();
        return n;
    }

    /** Their GPU time. */
    public long shortNs(double us) {
        long n = 0;
        for (DurationBucket b : buckets) if (b.upToNs() <= us * 1000) n += b.totalNs();
        return n;
    }

    /** Launch gaps after them ({@link DurationBucket#gapNs()}). */
    public long shortGapNs(double us) {
        long n = 0;
        for (DurationBucket b : buckets) if (b.upToNs() <= us * 1000) n += b.gapNs();
        return n;
    }

    /** Share of kernel time in kernels shorter than {@code us}, 0..100. */
    public double shortSharePct(double us) {
        return Percent.of(shortNs(us), totalNs);
    }

    /** The bucket bound actually used for a threshold of {@code us} (largest bound not above it), in µs. */
    public static double boundUs(double us) {
        long best = 0;
        for (long b : BOUNDS_NS) if (b <= us * 1000) best = b;
        return best / 1000.0;
    }
}
