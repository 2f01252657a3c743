package dlproflint.compare;

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
     * Two-sided p-value of the Mann-Whitney U test (normal approximation with tie correction and continuity
     * correction); NaN with fewer than 3 samples on a side, where the approximation means nothing.
     */
    public static double mannWhitneyP(double[] a, double[] b) {
        int n1 = a.length;
        int n2 = b.length;
        if (n1 < 3 || n2 < 3) return Double.NaN;
        int n = n1 + n2;
        double[] all = new double[n];
        int[] group = new int[n];
        Integer[] order = new Integer[n];
        for (int i = 0; i < n1; i++) all[i] = a[i];
        for (int i = 0; i < n2; i++) {
            all[n1 + i] = b[i];
            group[n1 + i] = 1;
        }
        for (int i = 0; i < n; i++) order[i] = i;
        Arrays.sort(order, (x, y) -> Double.compare(all[x], all[y]));
        double rankSumA = 0;
        double tieTerm = 0;
        for (int i = 0; i < n; ) {
            int j = i;
            while (j + 1 < n && all[order[j + 1]] == all[order[i]]) j++;
            double rank = (i + j) / 2.0 + 1;
            int t = j - i + 1;
            if (t > 1) tieTerm += (double) t * t * t - t;
            for (int k = i; k <= j; k++) if (group[order[k]] == 0) rankSumA += rank;
            i = j + 1;
        }
        double u = rankSumA - n1 * (n1 + 1) / 2.0;
        double mean = n1 * (double) n2 / 2;
        double var = n1 * (double) n2 / 12 * ((n + 1) - tieTerm / ((double) n * (n - 1)));
        if (var <= 0) return 1;
        double z = (Math.abs(u - mean) - 0.5) / Math.sqrt(var);
        return Math.min(1, 2 * (1 - normalCdf(Math.max(0, z))));
    }

    /** Standard normal CDF (Abramowitz-Stegun 7.1.26 for erf, error below 1.5e-7). */
    static double normalCdf(double z) {
        double x = Math.abs(z) / Math.sqrt(2);
        double t = 1 / (1 + 0.3275911 * x);
        double erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592)
                * t * Math.exp(-x * x);
        return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
    }
}
