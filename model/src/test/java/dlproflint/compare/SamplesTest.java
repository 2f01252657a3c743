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
        assertEquals(0.5, Samples.normalCdf(0), 1e-7);
        assertEquals(0.975, Samples.normalCdf(1.959964), 1e-6);
    }

    @Test
    void pooledStandardDeviationOfRunsAroundTheirOwnMeans() {
        // base runs 10, 12, 14 (squares 8), head runs 20, 24 (squares 8): 16 / (5 - 2)
        assertEquals(Math.sqrt(16.0 / 3), Samples.pooledSd(new double[] {10, 12, 14}, new double[] {20, 24}), 1e-12);
        assertEquals(Math.sqrt(2), Samples.pooledSd(new double[] {1, 3}, new double[] {7}), 1e-12, "a single run adds no degree of freedom");
        assertEquals(0, Samples.pooledSd(new double[] {1}, new double[] {7}), "one value a side: no spread to measure");
    }
}
