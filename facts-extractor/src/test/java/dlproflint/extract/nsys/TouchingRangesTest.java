package dlproflint.extract.nsys;

import dlproflint.extract.ReadOptions;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import dlproflint.testing.SqliteVariant;
import dlproflint.testing.TimelineVariants;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ranges that touch - one ends at the very nanosecond the next begins - are siblings, not parent and child
 * (issue 23: every forward op used to fold into the first one). On every corpus nsys export with NVTX ranges,
 * making consecutive siblings touch leaves the ops, their call and kernel counts and their GPU times as they were.
 */
class TouchingRangesTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {
            "mohanadodema-dlprof/w_Relu/nsys_profile.sqlite",
            "mohanadodema-dlprof/root/nsys_profile.sqlite",
            "llama3-inference-nsys2024/real_inference_simulation.sqlite"})
    void touchingSiblingsLeaveOpsUnchanged(String relative) throws Exception {
        Path source = Corpus.file(relative);
        Path touched = SqliteVariant.of(source, dir, "touched");
        int moved = TimelineVariants.touchSiblingRanges(touched);
        assertTrue(moved > 10, "the variant moves ranges (" + moved + ")");
        ProfileFacts before = new NsysSqliteReader().read(source, ReadOptions.DEFAULT);
        ProfileFacts after = new NsysSqliteReader().read(touched, ReadOptions.DEFAULT);
        assertEquals(ops(before), ops(after), relative + ": ops, calls, kernel calls and GPU time with " + moved
                + " ranges made to touch their previous sibling");
        assertEquals(before.iterations().size(), after.iterations().size(), "iterations");
        assertEquals(before.kernels().size(), after.kernels().size(), "kernel rows");
    }

    /**
     * The shape the issue met: an emit_nvtx loop whose op ranges follow each other on the main thread and on the
     * autograd thread; touching, every forward op used to fold into the first one and the backward ops after it.
     */
    @org.junit.jupiter.api.Test
    void touchingEmitNvtxOpsStaySiblings() throws Exception {
        Path source = dir.resolve("emit-nvtx.sqlite");
        dlproflint.synth.Workload.generate(dlproflint.synth.WorkloadSpec.builder().iterations(4).opsPerIteration(12)
                .kernelsPerOp(2).emitNvtx(true).backward(true).build(), source);
        Path touched = SqliteVariant.of(source, dir, "emit-nvtx-touched");
        int moved = TimelineVariants.touchSiblingRanges(touched);
        assertTrue(moved > 40, "the variant moves ranges (" + moved + ")");
        ProfileFacts before = new NsysSqliteReader().read(source, ReadOptions.DEFAULT);
        ProfileFacts after = new NsysSqliteReader().read(touched, ReadOptions.DEFAULT);
        assertTrue(before.ops().size() > 10, "ops " + before.ops().size());
        assertEquals(ops(before), ops(after));
    }

    /** Op id → calls, kernel calls, GPU time: what touching must not change (CPU times do change: ranges moved). */
    private static Map<String, String> ops(ProfileFacts f) {
        Map<String, String> out = new TreeMap<>();
        for (OpFact op : f.ops()) {
            out.put(op.id(), op.name() + " " + op.direction() + " calls=" + op.calls() + " kernels=" + op.kernelCalls()
                    + " gpu=" + op.gpuTime().total());
        }
        return out;
    }
}
