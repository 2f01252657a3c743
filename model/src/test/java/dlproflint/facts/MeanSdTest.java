package dlproflint.facts;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MeanSdTest {
    @Test
    void populationMeanAndSd() {
        MeanSd s = new MeanSd();
        for (double v : new double[]{2, 4, 4, 4, 5, 5, 7, 9}) s.add(v);
        assertEquals(8, s.count());
        assertEquals(5.0, s.mean(), 1e-12);
        assertEquals(2.0, s.sd(), 1e-12); // the textbook population example
        assertEquals(40.0, s.cvPct(-1), 1e-9);
    }

    @Test
    void emptyAndSingleValues() {
        assertEquals(0, new MeanSd().mean());
        assertEquals(0, new MeanSd().sd());
        assertEquals(100, new MeanSd().cvPct(100));
        assertEquals(0, new MeanSd().add(7).sd());
    }

    @Test
    void keepsPrecisionOnLargeNanosecondValues() {
        // 1e15 ns with a spread of 1 ns: the naive sum-of-squares form loses it entirely (cancellation)
        MeanSd s = new MeanSd();
        for (int i = 0; i < 1000; i++) s.add(1e15 + (i % 2 == 0 ? -1 : 1));
        assertEquals(1.0, s.sd(), 1e-3);
    }
}
