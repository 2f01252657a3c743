package dlproflint.extract;

import dlproflint.facts.Direction;
import dlproflint.facts.KernelFact;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.Stat;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 28: a profile of absurdly many distinct kernels and ops keeps the costliest rows and sums the rest. */
class FactRowsTest {
    private static ProfileFacts facts(int kernels, int ops) {
        ProfileFacts.Builder b = ProfileFacts.builder().profile(new ProfileInfo("p.json", "kineto", null, null, 0, 1));
        for (int i = 0; i < kernels; i++) {
            b.kernel(new KernelFact("k" + i, "k" + i, "OP_" + i, i % 2, new Stat(1, i + 1, i + 1, i + 1), Stat.EMPTY, false, null, null));
        }
        for (int i = 0; i < ops; i++) {
            b.op(new OpFact("OP_" + i, "op" + i, "t", Direction.NA, 2, Stat.EMPTY, new Stat(2, i, 0, i), Stat.EMPTY, Stat.EMPTY,
                    false, false, 0, 1, null, null, List.of()));
        }
        return b.build();
    }

    @Test
    void aProfileWithinTheLimitIsUntouched() {
        ProfileFacts f = facts(10, 10);
        assertSame(f, FactRows.bound(f));
    }

    @Test
    void theCostliestRowsAreKeptAndTheRestSummedPerGpu() {
        int n = FactRows.MAX_ROWS + 1000;
        ProfileFacts f = FactRows.bound(facts(n, n));
        assertEquals(FactRows.MAX_ROWS + 2, f.kernels().size(), "the kept rows and one per GPU");
        assertEquals(FactRows.MAX_ROWS + 1, f.ops().size());
        long kept = f.kernels().stream().filter(k -> !k.name().startsWith("(")).mapToLong(k -> k.gpuTime().total()).min().orElseThrow();
        assertEquals(1001, kept, "the 1,000 cheapest are the ones folded");
        long total = f.kernels().stream().mapToLong(k -> k.gpuTime().total()).sum();
        assertEquals((long) n * (n + 1) / 2, total, "GPU time is kept in all");
        assertEquals(n * 2L, f.ops().stream().mapToLong(OpFact::calls).sum(), "calls too");
        assertTrue(f.kernels().stream().anyMatch(k -> k.name().equals("(500 more kernel rows)")), f.kernels().get(f.kernels().size() - 1).toString());
        assertTrue(f.warnings().stream().anyMatch(w -> w.code().equals("rows-folded")), f.warnings().toString());
    }
}
