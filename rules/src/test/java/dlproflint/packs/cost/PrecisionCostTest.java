package dlproflint.packs.cost;

import dlproflint.facts.GpuInfo;
import dlproflint.facts.KernelFact;
import dlproflint.facts.KernelKind;
import dlproflint.facts.Precision;
import dlproflint.facts.Stat;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;

class PrecisionCostTest {
    static GpuInfo gpu(int major, int minor) {
        return new GpuInfo(0, "gpu", 132, 0, major, minor, -1, GpuInfo.Capability.REPORTED);
    }

    static KernelFact kernel(KernelKind kind, Precision p, boolean tc, long ns) {
        return new KernelFact("k", "k", "op", 0, Stat.of(ns), Stat.EMPTY, tc, "1,1,1", "1,1,1", p, "f", kind);
    }

    @Test
    void simtGemmToBf16FollowsTheGenerationsThroughputRatioAtHalfEfficiency() {
        KernelFact sgemm = kernel(KernelKind.GEMM, Precision.FP32, false, 1000);
        // Hopper: 989 / 67 × 0.5; Ampere A100: 312 / 19.5 × 0.5 = 8; Volta: 125 / 15.7 × 0.5
        assertEquals(989 / 67.0 * 0.5, PrecisionCost.speedup(sgemm, PrecisionCost.Peaks.of(gpu(9, 0)), PrecisionCost.Target.HALF), 1e-9);
        assertEquals(8.0, PrecisionCost.speedup(sgemm, PrecisionCost.Peaks.of(gpu(8, 0)), PrecisionCost.Target.HALF), 1e-9);
        // data-centre Blackwell (10.0) against the desktop and workstation chips of the same architecture (12.0), whose
        // tensor cores are an Ada-like 4x their FP32 rate, not the B200's 28x
        assertEquals(2250 / 80.0 * 0.5, PrecisionCost.speedup(sgemm, PrecisionCost.Peaks.of(gpu(10, 0)), PrecisionCost.Target.HALF), 1e-9);
        assertEquals(2.0, PrecisionCost.speedup(sgemm, PrecisionCost.Peaks.of(gpu(12, 0)), PrecisionCost.Target.HALF), 1e-9);
        assertEquals(PrecisionCost.speedup(sgemm, PrecisionCost.Peaks.of(gpu(8, 9)), PrecisionCost.Target.HALF),
                PrecisionCost.speedup(sgemm, PrecisionCost.Peaks.of(gpu(12, 0)), PrecisionCost.Target.HALF), 0.05, "as Ada's");
        assertEquals(125 / 15.7 * 0.5, PrecisionCost.speedup(sgemm, PrecisionCost.Peaks.of(gpu(7, 0)), PrecisionCost.Target.HALF), 1e-9);
        // TF32 to BF16 is tensor core to tensor core: the full ratio, 2×
        KernelFact tf32 = kernel(KernelKind.CONV, Precision.TF32, true, 1000);
        assertEquals(2.0, PrecisionCost.speedup(tf32, PrecisionCost.Peaks.of(gpu(8, 0)), PrecisionCost.Target.HALF), 1e-9);
        // FP32 attention on tensor cores runs 3×TF32: BF16 is 6× its rate on an A100
        KernelFact attn = kernel(KernelKind.ATTENTION, Precision.FP32, true, 1000);
        assertEquals(6.0, PrecisionCost.speedup(attn, PrecisionCost.Peaks.of(gpu(8, 0)), PrecisionCost.Target.HALF), 1e-9);
    }

    @Test
    void aGpuNewerThanTheTableGetsItsNewestRatiosAndSaysTheyAreAssumed() {
        PrecisionCost.Peaks newest = PrecisionCost.Peaks.of(gpu(12, 0));
        PrecisionCost.Peaks future = PrecisionCost.Peaks.of(gpu(13, 0));
        KernelFact sgemm = kernel(KernelKind.GEMM, Precision.FP32, false, 1000);
        assertEquals(PrecisionCost.speedup(sgemm, newest, PrecisionCost.Target.HALF),
                PrecisionCost.speedup(sgemm, future, PrecisionCost.Target.HALF), 1e-9);
        assertTrue(future.generation().contains("assumed: compute capability 13.0 is newer"), future.generation());
        assertFalse(newest.generation().contains("assumed"), newest.generation());
    }

    @Test
    void otherKernelsAndLowPrecisionOnesDoNotChange() {
        PrecisionCost.Peaks h = PrecisionCost.Peaks.of(gpu(9, 0));
        assertEquals(1.0, PrecisionCost.speedup(kernel(KernelKind.OTHER, Precision.FP32, false, 1), h, PrecisionCost.Target.HALF));
        assertEquals(1.0, PrecisionCost.speedup(kernel(KernelKind.GEMM, Precision.BF16, true, 1), h, PrecisionCost.Target.HALF));
        assertEquals(1.0, PrecisionCost.speedup(kernel(KernelKind.GEMM, Precision.FP8, true, 1), h, PrecisionCost.Target.TF32));
        assertEquals(1.0, PrecisionCost.speedup(kernel(KernelKind.GEMM, null, false, 1), h, PrecisionCost.Target.HALF));
        // already TF32: TF32 is no faster
        assertEquals(1.0, PrecisionCost.speedup(kernel(KernelKind.GEMM, Precision.TF32, true, 1), h, PrecisionCost.Target.TF32));
    }

    @Test
    void noGenerationNoEstimate() {
        assertNull(PrecisionCost.estimate(List.of(), gpu(6, 0), PrecisionCost.Target.HALF));
        // Turing has no TF32
        assertNull(PrecisionCost.estimate(List.of(), gpu(7, 5), PrecisionCost.Target.TF32));
    }

    @Test
    void estimateSharesKernelTimeOfTheDevice() {
        List<KernelFact> ks = List.of(kernel(KernelKind.GEMM, Precision.FP32, false, 800),
                kernel(KernelKind.OTHER, Precision.FP32, false, 200));
        PrecisionCost.Estimate e = PrecisionCost.estimate(ks, gpu(8, 0), PrecisionCost.Target.HALF);
        assertEquals(1000, e.kernelNs());
        assertEquals(800, e.convertibleNs());
        assertEquals(0.8 * (1 - 1 / 8.0), e.savedShare(), 1e-9);
    }
}
