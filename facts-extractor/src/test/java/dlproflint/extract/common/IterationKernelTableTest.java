package dlproflint.extract.common;

import dlproflint.facts.IterationKernel;
import dlproflint.facts.KernelFact;
import dlproflint.facts.Stat;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Per-iteration kernel rows: cells per (iteration, row), whole evenly spread iterations when over the cap. */
class IterationKernelTableTest {
    private static KernelFact row(int i) {
        return new KernelFact("k" + i, "k" + i, "OP_" + (i % 7), i % 2, Stat.EMPTY, Stat.EMPTY, i % 3 == 0, null, null);
    }

    @Test
    void sumsLaunchesPerIterationAndRowAndKeepsTheFirstStart() {
        IterationKernelTable t = new IterationKernelTable(4, 1);
        t.add(1, 0, 100, 5_000);
        t.add(1, 0, 50, 4_000);
        t.add(1, 3, 10, 4_500);
        t.add(2, 0, 7, 9_000);
        t.add(9, 0, 7, 9_000); // no such iteration: ignored
        List<IterationKernel> facts = t.facts(IterationKernelTableTest::row);
        assertEquals(List.of(
                new IterationKernel(1, "OP_0", "k0", 0, true, 2, 150, 4_000),
                new IterationKernel(1, "OP_3", "k3", 1, true, 1, 10, 4_500),
                new IterationKernel(2, "OP_0", "k0", 0, true, 1, 7, 9_000)), facts);
        assertNull(t.sampleWarning());
        assertEquals(0, t.droppedLaunches());
    }

    /**
     * 1000 aggregated iterations of 300 rows each (300,000 cells) do not fit 200,000: every 2nd iteration is kept,
     * complete, whichever order the launches come in (here: process by process, as the nsys reader streams).
     */
    @Test
    void overTheCapKeepsWholeEvenlySpreadIterations() {
        int iterations = 1000, rows = 300, first = 5;
        IterationKernelTable t = new IterationKernelTable(first + iterations, first);
        long launches = 0;
        for (int process = 0; process < 2; process++) {
            for (int it = first; it < first + iterations; it++) {
                for (int r = process; r < rows; r += 2) {
                    t.add(it, r, 10, it * 1_000L + r);
                    launches++;
                }
            }
        }
        List<IterationKernel> facts = t.facts(IterationKernelTableTest::row);
        assertTrue(facts.size() <= IterationKernel.MAX_ROWS, "cells " + facts.size());
        Map<Integer, Long> perIteration = facts.stream().collect(Collectors.groupingBy(IterationKernel::iteration,
                TreeMap::new, Collectors.counting()));
        assertEquals(500, perIteration.size(), "every 2nd iteration");
        assertTrue(perIteration.keySet().stream().allMatch(i -> (i - first) % 2 == 0), "from the first aggregated one");
        assertTrue(perIteration.values().stream().allMatch(n -> n == rows), "each kept iteration complete");
        assertEquals(launches - 500L * rows, t.droppedLaunches());
        assertTrue(t.sampleWarning().startsWith("per-iteration kernel rows are kept for every 2nd aggregated iteration only"),
                t.sampleWarning());
    }
}
