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
import dlproflint.testing.KinetoEvents;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.zip.GZIPOutputStream;

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
        JsonNode doc;
        try (var in = KinetoEvents.open(Corpus.file(CASE))) {
            doc = JSON.readTree(in);
        }
        change.accept((ArrayNode) doc.get("traceEvents"));
        Path out = dir.resolve(name + ".json.gz");
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(out))) {
            JSON.writeValue(o, doc);
        }
        return out;
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
