package dlproflint.ruletests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ProfileFacts;
import dlproflint.findings.Finding;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The replayed host-sync cost (issue 24, item 1) on variants of the with-stack H200 case: the syncs taken out, and the
 * GPU made slower so that the host runs ahead and each sync drains a real backlog. What a stream queue does decides
 * the answer, not the file: no syncs, no finding; a GPU-bound loop pays more for the same syncs than a host-bound one.
 */
class HostSyncVariantsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CASE = "pytorch-h200-2026/gpt_item_sync.pt.trace.json.gz";
    private static final Set<String> SYNCS = Set.of("aten::item", "aten::_local_scalar_dense", "cudaStreamSynchronize",
            "cudaDeviceSynchronize");

    @TempDir
    Path dir;

    private Path variant(String name, Consumer<ArrayNode> change) throws Exception {
        return variant(CASE, name, change);
    }

    private Path variant(String rel, String name, Consumer<ArrayNode> change) throws Exception {
        JsonNode doc = PrecisionVariantsTest.read(rel);
        change.accept((ArrayNode) doc.get("traceEvents"));
        return PrecisionVariantsTest.write(doc, dir, name);
    }

    private static ProfileFacts read(Path p) throws Exception {
        return ProfileReaders.discover().read(p, ReadOptions.DEFAULT);
    }

    private static Finding hostSync(ProfileFacts f) throws Exception {
        List<Finding> x = AllPacks.engine().lint(f).stream().filter(v -> v.ruleId().equals("pytorch/host-sync-in-step")).toList();
        return x.isEmpty() ? null : x.get(0);
    }

    @Test
    void withoutItsSyncsTheLoopHasNothingToSave() throws Exception {
        Path none = variant("no-syncs", events -> {
            for (int i = events.size() - 1; i >= 0; i--) if (SYNCS.contains(events.get(i).path("name").asText())) events.remove(i);
        });
        ProfileFacts f = read(none);
        assertEquals(null, f.hostSyncs(), "no sync point left");
        assertEquals(null, hostSync(f));
        ProfileFacts original = read(Corpus.file(CASE));
        assertTrue(original.hostSyncs().savingNs() > 0, "the original's syncs cost something: " + original.hostSyncs());
    }

    @Test
    void aSlowerGpuMakesTheSameSyncsCostMore() throws Exception {
        // every GPU operation 4x longer, each stream's operations laid out again back to back where they now overlap:
        // the GPU (11 ms of work per step, 44 ms slowed) now runs behind the host
        Path slow = variant("slow-gpu", events -> gpuTimesScaled(events, 4));
        ProfileFacts original = read(Corpus.file(CASE));
        ProfileFacts slowed = read(slow);
        assertNotNull(slowed.hostSyncs());
        double before = original.hostSyncs().savingNs() / (double) original.hostSyncs().steps();
        double after = slowed.hostSyncs().savingNs() / (double) slowed.hostSyncs().steps();
        // host-bound as recorded: the sync drains the ~0.2 ms tail the GPU has left; GPU-bound: the host, back from the
        // sync, needs ~0.7 ms to launch the next step's first kernel while the GPU waits (the refill). Both are small:
        // this loop does little host work between its sync and its next launch
        assertTrue(after > 2 * before, "a GPU-bound loop pays for the refill after each sync: " + before + " -> " + after + " ns per step");
        Finding f = hostSync(slowed);
        assertNotNull(f, "the slowed loop's syncs are reported");
        assertTrue(f.problem().contains("cost "), f.problem());
    }

    /**
     * Every GPU operation's duration times {@code factor}, each stream's operations laid out again back to back where
     * they would now overlap (a slower GPU); a factor under 1 leaves the starts as recorded (a faster GPU).
     */
    private static void gpuTimesScaled(ArrayNode events, double factor) {
        List<ObjectNode> gpu = new ArrayList<>();
        for (JsonNode e : events) {
            String cat = e.path("cat").asText();
            if (cat.equals("kernel") || cat.equals("gpu_memcpy") || cat.equals("gpu_memset")) gpu.add((ObjectNode) e);
        }
        gpu.sort((a, b) -> Double.compare(a.get("ts").asDouble(), b.get("ts").asDouble()));
        java.util.Map<String, Double> free = new java.util.HashMap<>();
        for (ObjectNode e : gpu) {
            String stream = e.path("tid").asText();
            double ts = Math.max(e.get("ts").asDouble(), free.getOrDefault(stream, 0.0));
            double dur = e.get("dur").asDouble() * factor;
            e.put("ts", ts).put("dur", dur);
            free.put(stream, ts + dur);
        }
    }

    @Test
    void aFasterGpuLeavesTheSyncsCheapButStillReported() throws Exception {
        // the GPU twice as fast: the host-bound loop's sync drains a shorter tail, and removing the syncs saves less
        // than 1 % of the step. They are still in every step, so the finding stays, a note that says how little
        Path fast = variant("fast-gpu", events -> gpuTimesScaled(events, 0.5));
        ProfileFacts original = read(Corpus.file(CASE));
        ProfileFacts faster = read(fast);
        double before = original.hostSyncs().savingNs() / (double) original.hostSyncs().steps();
        double after = faster.hostSyncs().savingNs() / (double) faster.hostSyncs().steps();
        assertTrue(after > 0 && after < before, "a shorter tail to drain: " + before + " -> " + after + " ns per step");
        Finding f = hostSync(faster);
        assertNotNull(f, "the syncs in every step are reported however cheap they are");
        assertEquals(dlproflint.findings.Severity.NOTE, f.severity());
        assertTrue(f.impact().savingPct() >= 0.1 && f.impact().savingPct() < 1, f.impact().toString());
        assertTrue(f.problem().contains("cost "), f.problem());
    }

    /**
     * {@code scaler.step()} as it runs with an optimizer that is not fused (SGD, the default foreach AdamW): after the
     * unscale and inf check it reads {@code found_inf.item()} on the host. The FP16 case uses a fused AdamW, which takes
     * the check on the GPU, so the call is put back: an {@code aten::item} around {@code _local_scalar_dense}, a copy
     * and a {@code cudaStreamSynchronize}, 25 µs in the first gap of 30 µs or more on the thread after each unscale op.
     */
    private static void scalerItemAfterEachUnscale(ArrayNode events) {
        List<JsonNode> unscale = new ArrayList<>();
        List<JsonNode> update = new ArrayList<>();
        for (JsonNode e : events) {
            String name = e.path("name").asText();
            if (name.equals("aten::_amp_foreach_non_finite_check_and_unscale_")) unscale.add(e);
            if (name.equals("aten::_amp_update_scale_")) update.add(e);
        }
        int added = 0;
        for (JsonNode u : unscale) {
            String tid = u.path("tid").asText();
            double from = u.get("ts").asDouble() + u.get("dur").asDouble();
            double until = Double.MAX_VALUE;
            for (JsonNode x : update) if (x.path("tid").asText().equals(tid) && x.get("ts").asDouble() >= from) until = Math.min(until, x.get("ts").asDouble());
            List<double[]> busy = new ArrayList<>();
            for (JsonNode x : events) {
                String cat = x.path("cat").asText();
                if (!x.path("tid").asText().equals(tid) || !x.has("dur")
                        || !(cat.equals("cpu_op") || cat.equals("cuda_runtime") || cat.equals("cuda_driver"))) continue;
                double a = x.get("ts").asDouble();
                double b = a + x.get("dur").asDouble();
                if (b > from && a < until) busy.add(new double[] {a, b});
            }
            busy.sort((a, b) -> Double.compare(a[0], b[0]));
            double at = from;
            Double gap = null;
            for (double[] b : busy) {
                if (b[0] - at >= 30) {
                    gap = at + 2;
                    break;
                }
                at = Math.max(at, b[1]);
            }
            if (gap == null) continue;
            events.add(hostEvent(u, "cpu_op", "aten::item", gap, 25));
            events.add(hostEvent(u, "cpu_op", "aten::_local_scalar_dense", gap + 1, 23));
            events.add(hostEvent(u, "cuda_runtime", "cudaMemcpyAsync", gap + 2, 4));
            events.add(hostEvent(u, "cuda_runtime", "cudaStreamSynchronize", gap + 7, 16));
            added++;
        }
        assertEquals(unscale.size(), added, "a gap after every unscale op");
    }

    private static ObjectNode hostEvent(JsonNode on, String cat, String name, double ts, double dur) {
        ObjectNode e = JSON.createObjectNode();
        e.put("ph", "X").put("cat", cat).put("name", name).put("ts", ts).put("dur", dur);
        e.set("pid", on.get("pid"));
        e.set("tid", on.get("tid"));
        return e;
    }

    @Test
    void gradScalersInfCheckOnTheHostIsNamedAndClaimedOnceByTheScaler() throws Exception {
        String fp16 = "pytorch-h200-2026/gpt_fp16_scaler.pt.trace.json.gz";
        ProfileFacts fused = read(Corpus.file(fp16));
        ProfileFacts unfused = read(variant(fp16, "unfused-scaler", HostSyncVariantsTest::scalerItemAfterEachUnscale));
        // the recorded case: the fused AdamW takes the check on the GPU, and the one sync in four steps is not the scaler's
        assertTrue(fused.hostSyncs() == null || fused.hostSyncs().scalerSyncPoints() == 0, String.valueOf(fused.hostSyncs()));
        assertEquals(4, unfused.hostSyncs().scalerSyncPoints(), unfused.hostSyncs().toString());
        List<Finding> findings = AllPacks.engine().lint(unfused);
        Finding sync = findings.stream().filter(f -> f.ruleId().equals("pytorch/host-sync-in-step")).findFirst()
                .orElseThrow(() -> new AssertionError("a sync in every step: " + findings.stream().map(Finding::ruleId).toList()));
        assertTrue(sync.problem().contains("GradScaler's inf check"), sync.problem());
        assertTrue(sync.recommendation().startsWith("GradScaler's step() reads the inf flag on the host"), sync.recommendation());
        // the syncs cost time, and all of them are the scaler's: BF16 removes them with it, so fp16-not-bf16 claims the
        // saving and host-sync-in-step keeps none of it (claimed once)
        assertTrue(sync.impact().lostNs() > 0, sync.impact().toString());
        assertEquals(0.0, sync.impact().savingNs(), 1e-6, sync.impact().toString());
        Finding fp16Finding = findings.stream().filter(f -> f.ruleId().equals("pytorch/fp16-not-bf16")).findFirst().orElseThrow();
        Finding fusedFp16 = AllPacks.engine().lint(fused).stream().filter(f -> f.ruleId().equals("pytorch/fp16-not-bf16")).findFirst().orElseThrow();
        assertEquals(4L, ((Number) fp16Finding.evidence().get("gradScalerSyncPoints")).longValue());
        assertTrue(fp16Finding.impact().model().contains("removing its inf check's 4 host sync points saves"), fp16Finding.impact().model());
        // the scaler's ops as in the fused case, plus the syncs' saving
        double expected = fusedFp16.impact().lostNs() + sync.impact().lostNs();
        assertEquals(expected, fp16Finding.impact().lostNs(), expected * 0.1, fp16Finding.impact() + " against " + fusedFp16.impact());
        assertTrue(fp16Finding.impact().savingPct() > 2 * fusedFp16.impact().savingPct(), fp16Finding.impact().toString());
    }

    @Test
    void theCaptureOverheadIsStatedAndTakenOffTheHostOnly() throws Exception {
        ProfileFacts f = read(Corpus.file("pytorch-h200-2026/gpt_healthy.pt.trace.json.gz"));
        assertNotNull(f.profilerOverhead(), "a host-bound capture's overhead is estimated");
        // labels.yaml: unprofiled, steps back to back, 17.4 ms; profiled 33.6 ms
        double unprofiled = f.profilerOverhead().unprofiledStepNs() / 1e6;
        assertTrue(unprofiled > 17.4 * 0.8 && unprofiled < 17.4 * 1.2, "replayed step " + unprofiled + " ms against 17.4 measured");
        assertTrue(f.warnings().stream().anyMatch(w -> w.code().equals("profiler-overhead") && w.message().contains("replayed without it")),
                f.warnings().toString());
        // a GPU-bound loop keeps its GPU time: FP32 GPT, 61.8 ms of kernels per step
        ProfileFacts gpuBound = read(Corpus.file("pytorch-h200-2026/gpt_fp32_tf32_off.pt.trace.json.gz"));
        if (gpuBound.profilerOverhead() != null) {
            assertTrue(gpuBound.profilerOverhead().unprofiledStepNs() > 0.75 * gpuBound.profilerOverhead().profiledStepNs(),
                    gpuBound.profilerOverhead().toString());
        }
    }
}
