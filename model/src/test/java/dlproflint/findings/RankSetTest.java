package dlproflint.findings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RankSetTest {
    @Test
    void missingRanksAreTheGapsBetweenThePresentOnes() {
        assertEquals("", RankSet.missing(4, Set.of(0, 1, 2, 3)));
        assertEquals("0,3-5,7", RankSet.missing(8, Set.of(1, 2, 6)));
        assertEquals("0-3", RankSet.missing(4, Set.of()));
        assertEquals("1", RankSet.missing(2, Set.of(0, 5, -3)), "ranks outside the world are ignored");
        assertEquals("", RankSet.missing(0, Set.of(0)));
        assertEquals("", RankSet.missing(-1, Set.of(0)));
    }

    /** Issue 28: a profile claiming 2^31-1 ranks made the old enumeration run for minutes and take gigabytes. */
    @Test
    @Timeout(5)
    void aHugeWorldSizeCostsNothingAndListsARun() {
        assertEquals("2-2147483646", RankSet.missing(Integer.MAX_VALUE, List.of(0, 1)));
    }

    @Test
    void atMost64RunsAreListedAndTheRestCounted() {
        List<Integer> everyOther = IntStream.range(0, 1000).map(i -> 2 * i).boxed().toList();
        String s = RankSet.missing(2000, everyOther);
        assertEquals(RankSet.MAX_RUNS, s.split(" and ")[0].split(",").length, s);
        assertEquals(" and " + (1000 - RankSet.MAX_RUNS) + " more", s.substring(s.indexOf(" and ")));
    }

    @Test
    void aLongLineKeepsItsStartAndEnd() {
        String path = "/data/" + "d".repeat(600) + "/p.sqlite";
        String line = OneLine.of(path + ": unable to open database file");
        assertEquals(OneLine.MAX + 3, line.length());
        assertEquals(true, line.startsWith("/data/ddd"), line);
        assertEquals(true, line.endsWith("p.sqlite: unable to open database file"), line);
        assertEquals("a?b?c", OneLine.of("a\u202Eb\u2028c"));
    }
}
