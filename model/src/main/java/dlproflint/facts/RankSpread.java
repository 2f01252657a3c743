package dlproflint.facts;

import java.io.Serializable;
import java.util.Arrays;

/**
 * How one per-rank quantity (a rank's mean per step) is spread over the ranks of a job: quartiles by linear
 * interpolation between ranks, so one outlier among many moves the extremes but not the middle.
 */
public record RankSpread(double min, double p25, double median, double p75, double max, double mean)
        implements Serializable {
    public static final RankSpread EMPTY = new RankSpread(0, 0, 0, 0, 0, 0);

    public static RankSpread of(double[] values) {
        if (values == null || values.length == 0) return EMPTY;
        double[] v = values.clone();
        Arrays.sort(v);
        double sum = 0;
        for (double x : v) sum += x;
        return new RankSpread(v[0], quantile(v, 0.25), quantile(v, 0.5), quantile(v, 0.75), v[v.length - 1], sum / v.length);
    }

    /** Quantile q (0..1) of sorted values, linear between neighbours. */
    public static double quantile(double[] sorted, double q) {
        if (sorted.length == 0) return 0;
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
    }

    /** The middle half's width: {@code p75 - p25}. */
    public double interquartile() {
        return p75 - p25;
    }
}
