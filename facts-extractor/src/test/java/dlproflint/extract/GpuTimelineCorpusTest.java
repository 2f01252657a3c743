package dlproflint.extract;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.facts.Iteration;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import dlproflint.testing.ProfileVariants;
import dlproflint.testing.SqliteVariant;
import dlproflint.testing.TimelineConsistency;
import dlproflint.testing.TimelineVariants;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GPU's own timeline on real profiles (issue 23): steps measured by the work they launched, on the side that
 * bound the loop, over a steady window; checked against what the traces themselves say (Kineto's
 * {@code gpu_user_annotation} projections), on the H200 cases whose behaviour is known, on a capture made to
 * include its warm-up, and for the layer's consistency properties on every corpus profile and transformed one.
 */
class GpuTimelineCorpusTest {
    private static final String H200 = "pytorch-h200-2026/";

    @TempDir
    Path dir;

    private static ProfileFacts read(Path p) throws ProfileException {
        return ProfileReaders.discover().read(p, ReadOptions.DEFAULT);
    }

    /**
     * Kineto projects each user annotation onto the GPU: {@code ProfilerStep#N}'s span covers the work launched
     * directly under it on the main thread, the nested annotations' spans ({@code Optimizer.step#...}) theirs. Mapped
     * to steps by their CPU annotation, the hull of a step's projections is its GPU span, within 2 %.
     */
    @TestFactory
    Stream<DynamicTest> h200StepSpansMatchTheTracesGpuAnnotations() {
        List<String> cases = Corpus.profiles().stream().filter(p -> p.startsWith(H200) && p.endsWith(".gz")).toList();
        assertTrue(cases.size() >= 16, "the H200 folder: " + cases);
        return cases.stream().map(rel -> DynamicTest.dynamicTest(rel, () -> {
            Path file = Corpus.file(rel);
            JsonNode trace = ProfileVariants.readTrace(file);
            List<double[]> hulls = annotationHulls(trace);
            if (hulls.isEmpty()) return; // no ProfilerStep (gpt_no_step_markers)
            ProfileFacts f = read(file);
            assertEquals(IterationSummary.STEP_MARKERS, f.iterationSummary().method(), rel);
            assertEquals(hulls.size(), f.iterations().size(), rel + ": steps");
            for (Iteration it : f.iterations()) {
                double[] h = hulls.get(it.index());
                double hull = (h[1] - h[0]) * 1000;
                assertTrue(it.gpuSpanNs() > 0, rel + " step " + it.index() + " has GPU work");
                assertEquals(hull, it.gpuSpanNs(), 0.02 * hull, rel + " step " + it.index() + ": GPU span against the "
                        + "gpu_user_annotation hull");
            }
        }));
    }

    /** Per ProfilerStep, in step order: [first start, last end] of its GPU annotations and its nested ones' (µs). */
    private static List<double[]> annotationHulls(JsonNode trace) {
        List<double[]> steps = new ArrayList<>();
        Map<Long, Double> cpuStart = new HashMap<>();
        for (JsonNode e : ProfileVariants.events(trace)) {
            if (!"user_annotation".equals(e.path("cat").asText())) continue;
            cpuStart.put(e.path("args").path("External id").asLong(), e.path("ts").asDouble());
            if (e.path("name").asText().startsWith("ProfilerStep#")) {
                steps.add(new double[] {e.path("ts").asDouble(), Double.MAX_VALUE, -Double.MAX_VALUE});
            }
        }
        steps.sort((a, b) -> Double.compare(a[0], b[0]));
        for (JsonNode e : ProfileVariants.events(trace)) {
            if (!"gpu_user_annotation".equals(e.path("cat").asText())) continue;
            Double at = cpuStart.get(e.path("args").path("External id").asLong());
            if (at == null) continue;
            double[] step = null;
            for (double[] s : steps) if (s[0] <= at) step = s;
            if (step == null) continue;
            step[1] = Math.min(step[1], e.path("ts").asDouble());
            step[2] = Math.max(step[2], e.path("ts").asDouble() + e.path("dur").asDouble());
        }
        List<double[]> out = new ArrayList<>();
        for (double[] s : steps) out.add(new double[] {s[1], s[2]});
        return out;
    }

    /**
     * {@code fp8_gemm_4k}: 16 FP8 GEMMs of ~0.41 ms per step, under a millisecond of host time per step. The GPU runs
     * behind the host, so each step lasts its GPU span (~7 ms, as the trace's own ProfilerStep projections), the GPU is
     * busy nearly all of it, and the kernels still running from the warm-up steps before the capture are no step's.
     */
    @Test
    void fp8GemmStepsAreMeasuredOnTheGpu() throws Exception {
        ProfileFacts f = read(Corpus.file(H200 + "fp8_gemm_4k.pt.trace.json.gz"));
        IterationSummary s = f.iterationSummary();
        assertEquals(IterationSummary.GPU_BOUND, s.binding());
        assertEquals(3, s.aggregated());
        assertTrue(s.avgDurationNs() > 6.5e6 && s.avgDurationNs() < 7.6e6, "step ~7 ms: " + s.avgDurationNs());
        double busy = 0;
        double steps = 0;
        for (Iteration it : f.iterations()) {
            assertEquals(16, it.kernelCount(), "16 GEMMs launched per step");
            assertTrue(it.cpuNs() < 1.2e6, "under a millisecond or so of host time per step: " + it.cpuNs());
            busy += it.gpuBusyNs();
            steps += it.stepNs();
        }
        double busyShare = 100 * busy / steps;
        assertTrue(busyShare > 95, "the GPU is busy nearly all of each step: " + busyShare);
        assertEquals(busyShare, f.breakdown().gpuUtilizationPct(), 2.0, "utilization is the GPU-busy share");
        assertTrue(f.warnings().stream().anyMatch(w -> w.code().equals("launched-before-capture")
                && w.message().startsWith("58 GPU activities")), f.warnings().toString());
    }

    /**
     * A capture that includes its warm-up: {@code gpt_healthy_b} with its first step's kernels 30× longer and 20
     * autotuning trial GEMMs. By default the steady window leaves step 0 out and says so; {@code --iter-start 0}
     * aggregates every step.
     */
    @Test
    void aCaptureWithItsWarmUpAggregatesTheSteadyStepsAndSaysSo() throws Exception {
        Path source = Corpus.file(H200 + "gpt_healthy_b.pt.trace.json.gz");
        Path warm = TimelineVariants.kinetoWarmUp(source, dir, "warm-up", 30, 20);
        ProfileFacts plain = read(source);
        ProfileFacts f = read(warm);
        IterationSummary s = f.iterationSummary();
        assertEquals(12, s.total());
        assertEquals(List.of(0), s.leftOut(), s.windowNote());
        assertEquals(IterationSummary.STEADY, s.window());
        assertEquals(1, s.aggStart());
        assertEquals(11, s.aggStop());
        assertTrue(s.windowNote().startsWith("step 0 left out of the aggregation as warm-up: "), s.windowNote());
        assertTrue(s.windowNote().contains("--iter-start 0 aggregates it"), s.windowNote());
        assertEquals(plain.iterations().get(0).kernelCount() + 20, f.iterations().get(0).kernelCount(), "the trials are step 0's");
        // the steady steps' figures are the plain capture's
        double plainSteady = plain.iterations().subList(1, 12).stream().mapToLong(Iteration::stepNs).average().orElse(0);
        assertEquals(plainSteady, s.avgDurationNs(), 0.02 * plainSteady, "the steady window's mean step");
        assertFalse(f.iterations().get(0).aggregated());
        long kernels = f.kernels().stream().mapToLong(dlproflint.facts.KernelFact::calls).sum();
        assertEquals(f.iterations().subList(1, 12).stream().mapToLong(Iteration::kernelCount).sum(), kernels,
                "kernel facts cover the steady steps only");
        assertTrue(f.kernels().stream().noneMatch(k -> k.name().contains("autotune_trial")), "no trial in the aggregates");

        ProfileFacts all = ProfileReaders.discover().read(warm, new ReadOptions(null, 0, null));
        IterationSummary a = all.iterationSummary();
        assertEquals(0, a.aggStart());
        assertEquals(11, a.aggStop());
        assertEquals(IterationSummary.USER_RANGE, a.window());
        assertTrue(a.leftOut().isEmpty());
        assertTrue(a.avgDurationNs() > 1.5 * s.avgDurationNs(), "the warm-up step weighs in the mean as asked: "
                + a.avgDurationNs() + " against " + s.avgDurationNs());
        assertTrue(all.kernels().stream().anyMatch(k -> k.name().contains("autotune_trial")), "the trials count as asked");
    }

    /** The layer's consistency properties on every corpus profile. */
    @TestFactory
    Stream<DynamicTest> consistencyOnEveryCorpusProfile() {
        return Corpus.profiles().stream().filter(GpuTimelineCorpusTest::readable).map(rel -> DynamicTest.dynamicTest(rel, () -> {
            ProfileFacts f;
            try {
                f = read(Corpus.file(rel));
            } catch (ProfileException e) {
                return; // not a profile a reader accepts (a bare DLProf CSV, a refused file): other tests cover them
            }
            TimelineConsistency.check(f, rel);
        }));
    }

    /** ... and on transformed profiles: the GPU behind the host, touching ranges, a capture with its warm-up. */
    @TestFactory
    Stream<DynamicTest> consistencyOnTransformedProfiles() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String rel : List.of(H200 + "fp8_gemm_4k.pt.trace.json.gz", H200 + "gpt_healthy.pt.trace.json.gz",
                H200 + "mobilenet_loader_nw0.pt.trace.json.gz", "hta/tests/data/nccl_parser_config/nccl_data.json.gz")) {
            tests.add(DynamicTest.dynamicTest("lagged " + rel, () -> {
                Path file = Corpus.file(rel);
                ProfileFacts f = read(file);
                Path lagged = TimelineVariants.kinetoGpuLag(file, dir, "lag-" + rel, starts(f), medianStep(f));
                assertTrue(TimelineConsistency.check(read(lagged), "lagged " + rel) > 0);
            }));
        }
        tests.add(DynamicTest.dynamicTest("warm-up gpt_healthy", () -> TimelineConsistency.check(
                read(TimelineVariants.kinetoWarmUp(Corpus.file(H200 + "gpt_healthy.pt.trace.json.gz"), dir, "warm", 30, 20)),
                "warm-up gpt_healthy")));
        for (String rel : List.of("llama3-inference-nsys2024/real_inference_simulation.sqlite",
                "mohanadodema-dlprof/w_Relu/nsys_profile.sqlite")) {
            tests.add(DynamicTest.dynamicTest("lagged and touching " + rel, () -> {
                Path file = Corpus.file(rel);
                ProfileFacts f = read(file);
                Path copy = SqliteVariant.of(file, dir, "lag-" + rel);
                TimelineVariants.nsysGpuLag(copy, starts(f), Math.min(medianStep(f), f.profile().wallNs() / 200));
                TimelineVariants.touchSiblingRanges(copy);
                assertTrue(TimelineConsistency.check(read(copy), "lagged " + rel) > 0);
            }));
        }
        return tests.stream();
    }

    static long[] starts(ProfileFacts f) {
        return f.iterations().stream().mapToLong(Iteration::startNs).toArray();
    }

    static long medianStep(ProfileFacts f) {
        long[] d = f.iterations().stream().mapToLong(Iteration::stepNs).sorted().toArray();
        return d.length == 0 ? 1_000_000 : d[d.length / 2];
    }

    private static boolean readable(String rel) {
        String n = rel.toLowerCase(Locale.ROOT);
        return n.endsWith(".sqlite") || n.endsWith(".json") || n.endsWith(".json.gz");
    }
}
