package dlproflint.facts;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class StatTest {
    @Test
    void accumulatorTracksTotalMinMaxAndAverage() {
        StatAccumulator acc = new StatAccumulator();
        acc.add(5);
        acc.add(1);
        acc.add(9);
        Stat s = acc.toStat();
        assertEquals(new Stat(3, 15, 1, 9), s);
        assertEquals(5.0, s.avg());
        assertEquals(s, Stat.EMPTY.plus(s));
        assertEquals(new Stat(4, 17, 1, 9), s.plus(Stat.of(2)));
    }
}
