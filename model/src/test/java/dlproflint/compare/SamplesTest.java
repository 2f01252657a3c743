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
}
