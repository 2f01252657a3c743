package dlproflint.compare;

import dlproflint.facts.Comparison;
import dlproflint.facts.Direction;
import dlproflint.facts.Iteration;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.KernelDelta;
import dlproflint.facts.KernelFact;
import dlproflint.facts.MetricDelta;
import dlproflint.facts.OpDelta;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.Stat;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunComparisonTest {
    /** Ten 100 ms steps (± jitter), ops and kernels with the given GPU time over the range. */
    private static ProfileFacts run(String format, double stepScale, Map<String, Long> ops, Map<String, Long> kernels) {
        ProfileFacts.Builder b = ProfileFacts.builder().profile(new ProfileInfo("run." + format, format, null, null, 0, 2_000_000_000L));
        long t = 0;
        for (int i = 0; i < 10; i++) {
            long d = Math.round((100_000_000 + (i % 3 - 1) * 1_000_000) * stepScale);
            b.iteration(new Iteration(i, t, t + d, true, 0, 0, 0, 0));
            t += d;
        }
        b.iterationSummary(new IterationSummary("ProfilerStep#N", true, "default", 10, 0, 9, 1e8 * stepScale, 1e6,
                IterationSummary.STEP_MARKERS, List.of()));
        ops.forEach((name, ns) -> b.op(new OpFact(name.toUpperCase() + "_1", name, "x", Direction.FPROP, 10, Stat.EMPTY,
                Stat.of(ns), Stat.EMPTY, Stat.EMPTY, false, false, 0, 10, null, null, List.of())));
        kernels.forEach((name, ns) -> b.kernel(new KernelFact(name, name, "OP_1", 0, Stat.of(ns), Stat.EMPTY,
                name.contains("s16816"), null, null)));
        return b.build();
    }

    @Test
    void opsMatchAcrossFormatsAndGrowthIsPerStep() {
        ProfileFacts base = run("kineto", 1, Map.of("aten::conv2d", 100_000_000L, "aten::relu", 20_000_000L), Map.of());
        ProfileFacts head = run("nsys-sqlite", 1.2, Map.of("aten::conv2d, seq = 3", 300_000_000L, "aten::relu, seq = 4", 20_000_000L), Map.of());
        Comparison c = RunComparison.of(base, head);
        assertTrue(c.related());
        assertEquals("ops", c.matchedBy());
        assertEquals(2, c.sharedCount());
        OpDelta conv = c.ops().get(0);
        assertEquals("aten::conv2d", conv.key());
        assertEquals(10_000_000, conv.baseNs(), 1e-6, "per step: the total over 10 steps");
        assertEquals(3.0, conv.ratio(), 1e-9);
        MetricDelta step = c.metric("step-time");
        assertEquals(10, step.samples());
        assertEquals(20, step.worseByPct(), 0.5);
        assertTrue(step.worseBySpreads() > 3, "a 20 % shift far beyond 1 % jitter");
        assertTrue(step.pValue() < 0.001);
    }

    /** Per-iteration kernel rows give each op a per-step spread: a noisy op's growth is weighed against it. */
    @Test
    void opsGetTheirPerStepSpreadFromTheIterationKernelRows() {
        ProfileFacts base = withRows(run("kineto", 1, Map.of("aten::conv2d", 100_000_000L), Map.of()), new long[] {9, 11, 10, 9, 11, 10, 9, 11, 10, 10});
        ProfileFacts head = withRows(run("kineto", 1, Map.of("aten::conv2d", 130_000_000L), Map.of()), new long[] {13, 12, 14, 13, 12, 14, 13, 12, 14, 13});
        OpDelta conv = RunComparison.of(base, head).ops().get(0);
        assertEquals(10, conv.samples());
        assertEquals(1.4826e6, conv.spread(), 1e3, "MAD 1 ms in both runs");
        assertEquals(3e6, conv.growthNs(), 1e-6);
        assertTrue(conv.growthSpreads() > 2 && conv.growthSpreads() < 2.1, "30 % growth but only 2 spreads: " + conv.growthSpreads());
    }

    private static ProfileFacts withRows(ProfileFacts f, long[] msPerStep) {
        ProfileFacts.Builder b = ProfileFacts.builder().profile(f.profile()).iterationSummary(f.iterationSummary());
        f.iterations().forEach(b::iteration);
        f.ops().forEach(b::op);
        for (int i = 0; i < msPerStep.length; i++) {
            b.iterationKernel(new dlproflint.facts.IterationKernel(i, "ATEN::CONV2D_1", "k", 0, false, 1, msPerStep[i] * 1_000_000, 0));
        }
        return b.build();
    }

    @Test
    void modelsWithoutCommonOpsAreUnrelated() {
        ProfileFacts resnet = run("kineto", 1, Map.of("aten::conv2d", 100_000_000L, "aten::add", 1_000_000L), Map.of());
        ProfileFacts bert = run("kineto", 1, Map.of("aten::bmm", 100_000_000L, "aten::add", 1_000_000L), Map.of());
        Comparison c = RunComparison.of(resnet, bert);
        assertFalse(c.related(), "aten::add is shared but carries 1 % of the GPU time");
        assertEquals(1, c.sharedCount());
        assertTrue(c.overlapPct() < 2);
    }

    @Test
    void kernelsMatchByBaseNameAndPrecisionChangesShow() {
        ProfileFacts base = run("nsys-sqlite", 1, Map.of(), Map.of("ampere_fp16_s16816gemm_fp16_128x64_nn", 50_000_000L,
                "vectorized_elementwise_kernel", 10_000_000L));
        ProfileFacts head = run("kineto", 1, Map.of(), Map.of("ampere_sgemm_128x64_nn", 150_000_000L,
                "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>(int, float)", 10_000_000L));
        Comparison c = RunComparison.of(base, head);
        assertEquals("kernels", c.matchedBy());
        KernelDelta appeared = c.kernels().get(0);
        assertTrue(appeared.appeared() && !appeared.headTc());
        assertTrue(c.kernels().stream().anyMatch(k -> k.vanished() && k.baseTc()));
        assertTrue(c.kernels().stream().anyMatch(k -> k.key().equals("vectorized_elementwise_kernel") && !k.appeared() && !k.vanished()));
    }

    @Test
    void matchKeys() {
        assertEquals("aten::conv2d", MatchKeys.op("aten::conv2d, seq = 12"));
        assertEquals("aten::addmm", MatchKeys.op("aten::addmm, op_id = 7"));
        assertEquals("vectorized_elementwise_kernel",
                MatchKeys.kernel("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>(int, float)"));
        assertEquals("ampere_sgemm_128x64_nn", MatchKeys.kernel("ampere_sgemm_128x64_nn"));
        assertEquals("explicit_convolve_sgemm", MatchKeys.kernel("void cudnn::detail::explicit_convolve_sgemm<float, int>(int, int)"));
    }

    /** Ten steps of {@code stepMs} (± 1 %), {@code kernelMs} of kernel time launched in each, the rest GPU idle. */
    private static ProfileFacts split(String name, double stepMs, double kernelMs) {
        ProfileFacts.Builder b = ProfileFacts.builder().profile(new ProfileInfo(name, "kineto", null, null, 0, 2_000_000_000L));
        long t = 0;
        for (int i = 0; i < 10; i++) {
            long d = Math.round(stepMs * 1e6 * (1 + (i % 3 - 1) * 0.01));
            long k = Math.round(kernelMs * 1e6);
            b.iteration(new Iteration(i, t, t + d, true, 5, k, 0, 0, -1, -1, d - k));
            t += d;
        }
        b.iterationSummary(new IterationSummary("ProfilerStep#N", true, "default", 10, 0, 9, stepMs * 1e6, 1e6,
                IterationSummary.STEP_MARKERS, List.of()));
        return b.build();
    }

    @Test
    void theStepIsSplitIntoKernelTimeAndHostGaps() {
        Comparison c = RunComparison.of(split("base", 30, 18), split("head", 34, 18));
        MetricDelta kernels = c.metric(RunComparison.KERNEL_TIME);
        MetricDelta gaps = c.metric(RunComparison.HOST_GAPS);
        assertEquals(18e6, kernels.baseCenter(), 1);
        assertEquals(0, kernels.shift(), 1);
        assertEquals(12e6, gaps.baseCenter(), 1e-6);
        assertEquals(16e6, gaps.headCenter(), 1e-6);
        assertEquals(MetricDelta.STEPS, gaps.noise());
        assertFalse(c.severalRuns());
    }

    /**
     * Three runs a side whose medians are 30, 33, 36 ms and 32, 35, 38 ms: between runs the centers are 33 and 35 ms,
     * the spread the pooled standard deviation of the run medians (3 ms), and the median runs stand for the sides.
     */
    @Test
    void severalRunsAreJudgedBetweenRuns() {
        List<ProfileFacts> bases = List.of(split("b36", 36, 18), split("b30", 30, 18), split("b33", 33, 18));
        List<ProfileFacts> heads = List.of(split("h32", 32, 18), split("h38", 38, 18), split("h35", 35, 18));
        assertEquals(2, RunComparison.representative(bases));
        assertEquals(2, RunComparison.representative(heads));
        Comparison c = RunComparison.of(bases, heads);
        assertTrue(c.severalRuns());
        assertEquals("b33", c.basePath());
        assertEquals(List.of("b36", "b30", "b33"), c.basePaths());
        MetricDelta step = c.metric("step-time");
        assertEquals(MetricDelta.RUNS, step.noise());
        assertEquals(3, step.baseRuns());
        assertEquals(30, step.baseSamples(), "the steps of all three runs");
        assertEquals(33e6, step.baseCenter(), 1e-6);
        assertEquals(35e6, step.headCenter(), 1e-6);
        assertEquals(3e6, step.spread(), 1e-6);
        assertTrue(step.worseBySpreads() < 1 && step.beyondNoise(5, 0.5), "2 ms against 3 ms between runs: " + step);
        assertFalse(step.beyondNoise(5, 3));
        assertEquals(MetricDelta.RUNS, c.metric(RunComparison.HOST_GAPS).noise());
        assertEquals(MetricDelta.NONE, c.metric("gpu-utilization") == null ? MetricDelta.NONE : c.metric("gpu-utilization").noise());
    }

    /** Issue 28: two profiles of disjoint kernel names keep a bounded number of deltas, the largest changes. */
    @Test
    void manyDistinctKernelsKeepTheMostChangedOnly() {
        Map<String, Long> a = new java.util.HashMap<>();
        Map<String, Long> b = new java.util.HashMap<>();
        for (int i = 1; i <= 5_000; i++) {
            a.put("base_kernel_" + i, 1_000L * i);
            b.put("head_kernel_" + i, 1_000L * i);
        }
        Comparison c = RunComparison.of(run("kineto", 1, Map.of(), a), run("kineto", 1, Map.of(), b));
        assertEquals(RunComparison.MAX_DELTAS, c.kernels().size());
        assertEquals(5_000, c.baseCount(), "the counts still say how many there were");
        assertTrue(c.kernels().get(0).key().equals("head_kernel_5000"), "the largest growth first: " + c.kernels().get(0));
        assertTrue(c.kernels().get(c.kernels().size() - 1).key().equals("base_kernel_5000"), "and the largest shrink last");
    }
}
