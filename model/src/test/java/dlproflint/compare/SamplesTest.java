package dlproflint.compare;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SamplesTest {
    @Test
    void robustCenterAndSpreadIgnoreAnOutlier() {
        double[] steps = {100, 101, 99, 100, 102, 98, 100, 500};
        assertEquals(100, Samples.median(steps));
        assertEquals(1, Samples.mad(steps), 1e-9, "the 500 ms checkpoint step moves neither");
        assertEquals(1.4826, Samples.pooledSpread(steps, steps), 1e-9);
        assertEquals(102, Samples.percentile(new double[] {100, 101, 99, 100, 102, 98, 100, 103, 97, 96}, 90));
    }

    @Test
    void rankTestSeparatesShiftedSamplesAndNotNoise() {
        double[] a = {100, 101, 99, 100, 102, 98, 100, 101, 99, 100};
        double[] b = {110, 111, 109, 110, 112, 108, 110, 111, 109, 110};
        assertTrue(Samples.mannWhitneyP(a, b) < 0.001, "disjoint samples: " + Samples.mannWhitneyP(a, b));
        double[] c = {101, 100, 99, 100, 101, 99, 100, 102, 98, 100};
        assertTrue(Samples.mannWhitneyP(a, c) > 0.5, "the same distribution: " + Samples.mannWhitneyP(a, c));
        assertTrue(Double.isNaN(Samples.mannWhitneyP(new double[] {1, 2}, b)), "too few samples");
        // R: wilcox.test(1:5, 6:10, exact = FALSE, correct = TRUE)$p.value = 0.01219
        assertEquals(0.01219, Samples.mannWhitneyP(new double[] {1, 2, 3, 4, 5}, new double[] {6, 7, 8, 9, 10}), 1e-5);
        assertEquals(1, Samples.mannWhitneyP(new double[] {5, 5, 5}, new double[] {5, 5, 5, 5}), "all tied: nothing to test");
    }

    /**
     * Commons Statistics' test (the one {@code compare} uses) against the hand-written one it replaced (normal
     * approximation, ties and continuity corrections, Abramowitz-Stegun erf): the same p-values, on untied samples,
     * on samples with ties (equal step times at the timer's resolution) and on shifted ones, to the old erf's error.
     */
    @Test
    void rankTestKeepsTheHandWrittenPValuesOnTiedAndUntiedSamples() {
        java.util.Random r = new java.util.Random(26);
        int tied = 0;
        for (int trial = 0; trial < 2000; trial++) {
            int n1 = 3 + r.nextInt(40);
            int n2 = 3 + r.nextInt(40);
            boolean ties = trial % 2 == 0;
            double shift = (trial % 5) * 0.3;
            double[] a = new double[n1];
            double[] b = new double[n2];
            for (int i = 0; i < n1; i++) a[i] = value(r, 0, ties);
            for (int i = 0; i < n2; i++) b[i] = value(r, shift, ties);
            if (ties) tied++;
            double expected = HandWrittenRankTest.p(a, b);
            assertEquals(expected, Samples.mannWhitneyP(a, b), 5e-7, "n " + n1 + "/" + n2 + (ties ? " tied" : " untied") + " shift " + shift);
        }
        assertEquals(1000, tied);
    }

    /** A step time: normal noise around 100 (+ shift), rounded to whole units when ties are wanted. */
    private static double value(java.util.Random r, double shift, boolean ties) {
        double v = 100 + shift + r.nextGaussian();
        return ties ? Math.rint(v) : v;
    }

    /** The implementation {@link Samples#mannWhitneyP} had before Commons Statistics, kept as the reference. */
    private static final class HandWrittenRankTest {
        static double p(double[] a, double[] b) {
            int n1 = a.length;
            int n2 = b.length;
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
            java.util.Arrays.sort(order, (x, y) -> Double.compare(all[x], all[y]));
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

        static double normalCdf(double z) {
            double x = Math.abs(z) / Math.sqrt(2);
            double t = 1 / (1 + 0.3275911 * x);
            double erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592)
                    * t * Math.exp(-x * x);
            return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
        }
    }

    @Test
    void pooledStandardDeviationOfRunsAroundTheirOwnMeans() {
        // base runs 10, 12, 14 (squares 8), head runs 20, 24 (squares 8): 16 / (5 - 2)
        assertEquals(Math.sqrt(16.0 / 3), Samples.pooledSd(new double[] {10, 12, 14}, new double[] {20, 24}), 1e-12);
        assertEquals(Math.sqrt(2), Samples.pooledSd(new double[] {1, 3}, new double[] {7}), 1e-12, "a single run adds no degree of freedom");
        assertEquals(0, Samples.pooledSd(new double[] {1}, new double[] {7}), "one value a side: no spread to measure");
    }
}
