package dlproflint.ruletests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.ProfileFacts;
import dlproflint.findings.Finding;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A capture made with {@code activities=[ProfilerActivity.CUDA]} only, made from the H200 folder's real traces by
 * leaving out what the CPU activity records (CPU ops, Python frames, user annotations and their GPU copies, the
 * forward-backward links and the ops' external ids): the kernels and the host's launch calls stay. The steps are then
 * found from the kernel launches, the tensor-core utilisation counts the FP32 GEMMs as eligible work, and the FP32
 * model still gets {@code amp-not-used} with the saving the full capture gives; the report says what it cannot see.
 */
class CudaOnlyCaptureTest {
    private static final String FP32 = "pytorch-h200-2026/gpt_fp32_tf32_off.pt.trace.json.gz";
    private static final String HEALTHY = "pytorch-h200-2026/gpt_healthy.pt.trace.json.gz";
    private static final String FP16 = "pytorch-h200-2026/gpt_fp16_scaler.pt.trace.json.gz";
    private static final String ITEM_SYNC = "pytorch-h200-2026/gpt_item_sync.pt.trace.json.gz";
    private static final Set<String> CPU_ACTIVITY = Set.of("cpu_op", "python_function", "user_annotation",
            "gpu_user_annotation", "fwdbwd");

    @TempDir
    static Path dir;

    /** The trace as a CUDA-only capture would have recorded it. */
    static Path cudaOnly(String rel, String name) throws Exception {
        return cudaOnly(rel, name, Set.of());
    }

    /** The same without the events of the categories in {@code alsoLeftOut}. */
    static Path cudaOnly(String rel, String name, Set<String> alsoLeftOut) throws Exception {
        JsonNode root = PrecisionVariantsTest.read(rel);
        ArrayNode kept = ((ObjectNode) root).arrayNode();
        for (JsonNode e : root.get("traceEvents")) {
            String cat = e.path("cat").asText();
            if (CPU_ACTIVITY.contains(cat) || alsoLeftOut.contains(cat)) continue;
            if (e.path("args").isObject()) ((ObjectNode) e.get("args")).remove("External id");
            kept.add(e);
        }
        ((ObjectNode) root).set("traceEvents", kept);
        return PrecisionVariantsTest.write(root, dir, name);
    }

    static ProfileFacts read(Path p) throws Exception {
        return AllPacks.readers().read(p, ReadOptions.DEFAULT);
    }

    @Test
    void stepsAreFoundFromTheKernelLaunchesAndTheGapIsSaid() throws Exception {
        ProfileFacts full = read(Corpus.file(HEALTHY));
        ProfileFacts cuda = read(cudaOnly(HEALTHY, "healthy-cuda-only"));
        assertTrue(cuda.ops().stream().allMatch(o -> o.unassociated()), "no CPU op is left: " + cuda.ops().size());
        IterationSummary s = cuda.iterationSummary();
        assertEquals(IterationSummary.INFERRED_REPEATING_OP, s.method(), s.toString());
        assertEquals(full.iterationSummary().total(), s.total(), "the same four steps");
        double fullStep = full.iterationSummary().avgDurationNs();
        assertEquals(fullStep, s.avgDurationNs(), fullStep * 0.05, "the step lasts as long measured from its first launch");
        assertTrue(cuda.warnings().stream().anyMatch(w -> w.code().equals("no-cpu-ops")), "the missing ops are said");
        assertFalse(full.warnings().stream().anyMatch(w -> w.code().equals("no-cpu-ops")));
        // the profiler's host cost is measured on ops: the report says why it is not taken out
        assertTrue(cuda.warnings().stream().anyMatch(w -> w.code().equals("profiler-overhead")
                && w.message().contains("no CPU ops")), cuda.warnings().toString());
        // BF16 tensor-core GEMMs: the utilisation stays what the ops gave it
        assertEquals(full.breakdown().tcUtilizationPct(), cuda.breakdown().tcUtilizationPct(), 2.0);
        assertFalse(rule(AllPacks.builtin().lint(cuda), "dlprof/amp-not-used"), "mixed precision is on");
    }

    @Test
    void fp32GemmsWithoutOpsAreStillEligibleWorkAndAmpIsAdvised() throws Exception {
        ProfileFacts full = read(Corpus.file(FP32));
        ProfileFacts cuda = read(cudaOnly(FP32, "fp32-cuda-only"));
        // only tensor-core kernels would count as eligible without ops: an FP32 model would read 100 %
        double tc = cuda.breakdown().tcUtilizationPct();
        assertTrue(tc < 20, "FP32 GEMMs are eligible work that used no tensor cores: " + tc);
        assertEquals(full.breakdown().tcUtilizationPct(), tc, 2.0);
        List<Finding> f = AllPacks.builtin().lint(cuda);
        Finding amp = f.stream().filter(x -> x.ruleId().equals("dlprof/amp-not-used")).findFirst().orElseThrow(
                () -> new AssertionError("amp-not-used on the kernels alone: " + f.stream().map(Finding::ruleId).toList()));
        assertEquals("fp32-only", amp.messageId());
        Finding withOps = AllPacks.builtin().lint(full).stream().filter(x -> x.ruleId().equals("dlprof/amp-not-used")).findFirst()
                .orElseThrow();
        // the same kernels, the same steps: the same saving (measured 72.9 % against the BF16 twin)
        assertEquals(withOps.impact().savingPct(), amp.impact().savingPct(), 3.0, amp.impact().model());
    }

    @Test
    void withoutLaunchCallsTheStepsAreFoundOnTheGpusClock() throws Exception {
        ProfileFacts full = read(Corpus.file(FP32));
        ProfileFacts gpuOnly = read(cudaOnly(FP32, "fp32-gpu-only", Set.of("cuda_runtime", "cuda_driver", "ac2g")));
        IterationSummary s = gpuOnly.iterationSummary();
        assertEquals(IterationSummary.INFERRED_REPEATING_OP, s.method(), s.toString());
        // the kernels launched before the capture are on the GPU's clock too, so the first step may start earlier
        assertTrue(s.total() >= full.iterationSummary().total(), s.toString());
        assertTrue(gpuOnly.warnings().stream().anyMatch(w -> w.code().equals("no-cpu-ops")
                && w.message().contains("no launch calls either")), gpuOnly.warnings().toString());
        assertTrue(rule(AllPacks.builtin().lint(gpuOnly), "dlprof/amp-not-used"), "the FP32 GEMMs are still eligible work");
    }

    @Test
    void theRuntimesSyncCallsStillMakeTheHostSyncFinding() throws Exception {
        // loss.item() and torch.cuda.synchronize() every step: without CPU ops, aten::item is gone, but the runtime
        // calls it made (cudaStreamSynchronize after the copy to the host) and cudaDeviceSynchronize are still recorded
        ProfileFacts cuda = read(cudaOnly(ITEM_SYNC, "item-sync-cuda-only"));
        assertTrue(cuda.hostSyncs() != null && cuda.hostSyncs().perStep() >= 1, String.valueOf(cuda.hostSyncs()));
        assertTrue(cuda.hostSyncs().calls().stream().anyMatch(c -> c.startsWith("cudaStreamSynchronize"))
                && cuda.hostSyncs().calls().stream().anyMatch(c -> c.startsWith("cudaDeviceSynchronize")),
                cuda.hostSyncs().calls().toString());
        Finding f = AllPacks.builtin().lint(cuda).stream().filter(x -> x.ruleId().equals("pytorch/host-sync-in-step"))
                .findFirst().orElseThrow(() -> new AssertionError("host-sync-in-step from the runtime's sync calls"));
        assertTrue(f.impact().savingPct() > 0, f.impact().toString());
        assertEquals(null, f.location(), "no Python frames: no source line is guessed");
    }

    @Test
    void theGradScalerIsSeenByItsKernels() throws Exception {
        // FP16 autocast with a GradScaler: without CPU ops its unscale/update ops are gone, their kernels are not
        ProfileFacts cuda = read(cudaOnly(FP16, "fp16-cuda-only"));
        Finding f = AllPacks.builtin().lint(cuda).stream().filter(x -> x.ruleId().equals("pytorch/fp16-not-bf16"))
                .findFirst().orElseThrow(() -> new AssertionError("fp16-not-bf16 from the GradScaler's kernels"));
        assertEquals("kernels", f.evidence().get("gradScalerSeenIn"), f.evidence().toString());
        // 4 steps: one update kernel and three unscale kernels (one per group of gradients) each
        assertEquals(16L, ((Number) f.evidence().get("gradScalerCalls")).longValue(), f.evidence().toString());
        Finding withOps = AllPacks.builtin().lint(read(Corpus.file(FP16))).stream()
                .filter(x -> x.ruleId().equals("pytorch/fp16-not-bf16")).findFirst().orElseThrow();
        assertEquals("ops", withOps.evidence().get("gradScalerSeenIn"));
        // the kernels' GPU time alone: no more than the ops' host and GPU time
        assertTrue(f.impact().lostNs() > 0 && f.impact().lostNs() <= withOps.impact().lostNs(),
                f.impact() + " against " + withOps.impact());
    }

    private static boolean rule(List<Finding> f, String id) {
        return f.stream().anyMatch(x -> x.ruleId().equals(id));
    }
}
