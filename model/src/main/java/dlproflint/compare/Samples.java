package dlproflint.compare;

import org.apache.commons.statistics.inference.AlternativeHypothesis;
import org.apache.commons.statistics.inference.ContinuityCorrection;
import org.apache.commons.statistics.inference.MannWhitneyUTest;
import org.apache.commons.statistics.inference.PValueMethod;

import java.util.Arrays;

/**
 * Robust statistics of per-step samples, the noise model of {@code compare}: medians instead of means (a slow
 * first step or a checkpoint does not move them), the median absolute deviation for the spread, and the
 * Mann-Whitney rank test as a second opinion that needs no distribution.
 */
public final class Samples {
    /** 1.4826 × MAD estimates the standard deviation of normally distributed samples. */
    static final double MAD_TO_SIGMA = 1.4826;

    private Samples() {
    }

    public static double median(double[] v) {
        if (v.length == 0) return Double.NaN;
        double[] s = v.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    /** Median absolute deviation from the median. */
    public static double mad(double[] v) {
        if (v.length == 0) return Double.NaN;
        double med = median(v);
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) d[i] = Math.abs(v[i] - med);
        return median(d);
    }

    /** Pooled robust standard deviation of two sample sets: √((σa² + σb²) / 2) with σ = 1.4826 × MAD. */
    public static double pooledSpread(double[] a, double[] b) {
        double sa = MAD_TO_SIGMA * mad(a);
        double sb = MAD_TO_SIGMA * mad(b);
        return Math.sqrt((sa * sa + sb * sb) / 2);
    }

    /**
     * Pooled standard deviation of two small sample sets around their own means,
     * √((Σ(a − ā)² + Σ(b − b̄)²) / (n_a + n_b − 2)): the noise between runs when each run gives one value. 0 without
     * a degree of freedom (one value a side).
     */
    public static double pooledSd(double[] a, double[] b) {
        int dof = a.length + b.length - 2;
        if (dof <= 0) return 0;
        return Math.sqrt((squares(a) + squares(b)) / dof);
    }

    private static double squares(double[] v) {
        if (v.length == 0) return 0;
        double mean = Arrays.stream(v).average().orElse(0);
        double s = 0;
        for (double x : v) s += (x - mean) * (x - mean);
        return s;
    }

    /** Nearest-rank percentile (1..100), as {@link dlproflint.facts.KeyMetrics#percentile}. */
    public static double percentile(double[] v, int p) {
        if (v.length == 0) return Double.NaN;
        double[] s = v.clone();
        Arrays.sort(s);
        int rank = (int) Math.ceil(p / 100.0 * s.length);
        return s[Math.max(0, Math.min(s.length - 1, rank - 1))];
    }

    /**
     * The rank test {@code compare} reports: two-sided, the normal approximation with the ties correction and the
     * continuity correction, always. Commons' default would take the exact distribution for small samples without ties;
     * the asymptotic one keeps the p-values of tied and untied samples on one scale (steps of equal duration are common
     * at the timer's resolution), as {@code compare} has always written them.
     */
    private static final MannWhitneyUTest RANK_TEST = MannWhitneyUTest.withDefaults()
            .with(AlternativeHypothesis.TWO_SIDED)
            .with(PValueMethod.ASYMPTOTIC)
            .with(ContinuityCorrection.ENABLED);

    /**
     * Two-sided p-value of the Mann-Whitney U test (Apache Commons Statistics, normal approximation with tie
     * correction and continuity correction); NaN with fewer than 3 samples on a side, where the approximation means
     * nothing; 1 when every value is the same (no variance to test against).
     */
    public static double mannWhitneyP(double[] a, double[] b) {
        if (a.length < 3 || b.length < 3) return Double.NaN;
        double p = RANK_TEST.test(a, b).getPValue();
        return Double.isNaN(p) ? 1 : Math.min(1, p);
    }
}
