package dlproflint.packs.cost;

import dlproflint.facts.GpuInfo;
import dlproflint.facts.Iteration;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.KernelFact;
import dlproflint.facts.KernelKind;
import dlproflint.facts.Precision;
import dlproflint.facts.TimeBreakdown;
import dlproflint.findings.Impact;
import dlproflint.findings.Units;
import dlproflint.packs.pytorch.Gpus;

import java.util.Collection;

/**
 * What a GEMM, convolution or attention kernel would take in another number format, from what the kernel ran
 * (its catalogue precision and tensor-core use) and the throughput of the GPU's generation: FP32 on CUDA cores
 * (SIMT), TF32, FP16/BF16 and FP8 on tensor cores. The models of {@code dlprof/amp-not-used} (to BF16, FP16 before
 * Ampere) and {@code pytorch/tf32-off} (to TF32).
 *
 * <p>The speed-up of a kernel is the ratio of the two formats' peak dense throughput on that generation; a kernel
 * that moves from CUDA cores to tensor cores gets {@link #TC_EFFICIENCY} of it, because tensor-core GEMMs reach a
 * smaller part of their (much higher) peak than SIMT GEMMs do of theirs, and a training step's GEMMs are not all
 * large. FP32 attention on tensor cores (xFormers/PyTorch memory-efficient attention in FP32 runs 3×TF32 for FP32
 * accuracy) runs at a third of the TF32 rate. Every other kernel (elementwise, normalisation, reductions, copies)
 * keeps its time: mixed precision halves their bytes but adds cast kernels (measured on the H200 folder: 0.84× of
 * the FP32 time for GPT's non-GEMM kernels), so the model counts neither.
 *
 * <p>The saving is the kernel time saved per steady step, and only where the step is GPU-bound: in a host-bound
 * (launch-bound) loop the GPU already waits for the host, faster kernels only make it wait longer, and autocast's
 * casts add launches (the H200 folder's MobileNetV3 is 1.6× slower in BF16). Measured error on
 * {@code pytorch-h200-2026}: {@code gpt_fp32_tf32_off} estimated 73 % against a measured 72.9 %.
 */
public final class PrecisionCost {
    /**
     * Share of the peak-throughput ratio a kernel moving from CUDA cores to tensor cores achieves. Measured on the
     * H200 folder's GPT: FP32 SIMT GEMMs 50.6 ms per step against 3.5 ms in BF16 (14.6×, the peak ratio is 14.8×);
     * 0.5 keeps the estimate conservative for smaller, memory-bound GEMMs.
     */
    public static final double TC_EFFICIENCY = 0.5;
    /** A step whose GPU kernels fill at least this share of it counts as GPU-bound when the binding side is not known. */
    public static final double GPU_BOUND_UTILIZATION_PCT = 80;
    /** What a precision finding's cost model says where the step is not GPU-bound and it promises no saving. */
    public static final String NOT_GPU_BOUND = "; the GPU did not set the pace (host-bound steps with kernels busy under "
            + Units.num(GPU_BOUND_UTILIZATION_PCT) + "% of the capture), so no saving is promised";

    /** The number format a fix moves the kernels to. */
    public enum Target {
        /** Mixed precision: BF16 on Ampere and newer, FP16 before (its throughput is the same). */
        HALF("BF16/FP16"),
        /** TF32 tensor cores for FP32 data (Ampere and newer). */
        TF32("TF32");

        private final String label;

        Target(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * Peak dense throughput (TFLOPS) of one generation's flagship data-centre part: FP32 on CUDA cores, TF32, FP16/BF16
     * and FP8 on tensor cores (0 = none). Only the ratios matter.
     */
    public record Peaks(String generation, double fp32, double tf32, double half, double fp8) {
        /** The generation of a GPU by compute capability; null for a GPU without tensor cores or one not recorded. */
        public static Peaks of(GpuInfo g) {
            // AMD devices report their gfx version as compute capability (an MI250 says 9.0): not an NVIDIA generation
            if (g == null || g.computeMajor() < 7 || Gpus.amd(g)) return null;
            int cc = g.computeMajor() * 10 + g.computeMinor();
            // compute capability 11.x and 12.x are the workstation, desktop and embedded Blackwell chips (RTX PRO 6000,
            // RTX 50, Thor): Ada's ratios (2× TF32, 4× BF16 over FP32), not the data-centre part's 14× and 28×; a GPU
            // newer than the table gets these newest ratios, and the estimate says they are assumed
            if (cc >= 110) {
                String assumed = cc < 130 ? "" : "; assumed: compute capability " + g.computeMajor() + "." + g.computeMinor()
                        + " is newer than any generation known here";
                return new Peaks("Blackwell GB20x (RTX PRO 6000" + assumed + ")", 126, 252, 504, 1008);
            }
            if (cc >= 100) return new Peaks("Blackwell (B200)", 80, 1100, 2250, 4500);
            if (cc >= 90) return new Peaks("Hopper (H100/H200 SXM)", 67, 495, 989, 1979);
            if (cc >= 89) return new Peaks("Ada (L40S)", 91.6, 183, 362, 733);
            if (cc >= 86) return new Peaks("Ampere GA10x (A40)", 37.4, 74.8, 149.7, 0);
            if (cc >= 80) return new Peaks("Ampere (A100)", 19.5, 156, 312, 0);
            if (cc >= 75) return new Peaks("Turing (T4)", 8.1, 0, 65, 0);
            return new Peaks("Volta (V100)", 15.7, 0, 125, 0);
        }

        double rate(Target t) {
            return t == Target.HALF ? half : tf32;
        }
    }

    /**
     * The kernels of one GPU a format change would speed up, and what they would take after it.
     *
     * @param kernelNs     all kernel time on the GPU
     * @param convertibleNs GEMM, convolution and attention time the change speeds up
     * @param afterNs      what that time becomes
     * @param peaks        the generation the ratios come from
     */
    public record Estimate(long kernelNs, long convertibleNs, double afterNs, Peaks peaks, Target target) {
        /** Share of all kernel time the change saves, 0..1. */
        public double savedShare() {
            return kernelNs <= 0 ? 0 : Math.max(0, convertibleNs - afterNs) / kernelNs;
        }

        /** The mean speed-up of the converted kernels. */
        public double speedup() {
            return afterNs <= 0 ? 1 : convertibleNs / afterNs;
        }
    }

    private PrecisionCost() {
    }

    /** The estimate for the kernels of device {@code g} moved to {@code target}; null when the generation is not known. */
    public static Estimate estimate(Collection<?> kernels, GpuInfo g, Target target) {
        return estimate(kernels, kernels, g, target);
    }

    /**
     * The estimate for the kernels {@code convert} of device {@code g} moved to {@code target}, against all of its
     * {@code kernels}; null when the generation is not known.
     */
    public static Estimate estimate(Collection<?> kernels, Collection<?> convert, GpuInfo g, Target target) {
        Peaks p = Peaks.of(g);
        if (p == null || p.rate(target) <= 0) return null;
        long all = 0;
        for (Object o : kernels) {
            if (o instanceof KernelFact k && k.deviceId() == g.deviceId()) all += k.gpuTime().total();
        }
        long convertible = 0;
        double after = 0;
        for (Object o : convert) {
            if (!(o instanceof KernelFact k) || k.deviceId() != g.deviceId()) continue;
            long ns = k.gpuTime().total();
            double s = speedup(k, p, target);
            if (s > 1) {
                convertible += ns;
                after += ns / s;
            }
        }
        return new Estimate(all, convertible, after, p, target);
    }

    /** How much faster one kernel runs in {@code target} on generation {@code p}; 1 when it would not change. */
    static double speedup(KernelFact k, Peaks p, Target target) {
        KernelKind kind = k.kind();
        if (!kind.gemmOrConv() && kind != KernelKind.ATTENTION) return 1;
        Precision prec = k.precision();
        if (prec == null) return 1;
        double rate;
        boolean simt = !k.usesTc();
        switch (prec) {
            case FP32 -> rate = simt ? p.fp32() : p.tf32() / 3;   // FP32 on tensor cores: 3×TF32 for FP32 accuracy
            case TF32 -> rate = simt ? p.fp32() : p.tf32();
            case FP16, BF16 -> rate = simt ? 2 * p.fp32() : p.half();
            default -> {
                return 1;
            }
        }
        if (rate <= 0) return 1;
        double s = p.rate(target) / rate * (simt ? TC_EFFICIENCY : 1);
        return Math.max(1, s);
    }

    /**
     * The impact of running the kernels in {@code target}: the kernel time saved per steady step ({@code lost}: what
     * the current format costs), recovered only where the step is GPU-bound.
     *
     * @param iterations the profile's {@link Iteration}s (the aggregated ones give the steady steps' kernel time)
     */
    public static Impact impact(Estimate e, Collection<?> iterations, IterationSummary s, TimeBreakdown b) {
        double share = e.savedShare();
        boolean gpuBound = gpuBound(s, b);
        double steps = 0;
        double kernelPerStep = 0;
        for (Object o : iterations) {
            if (o instanceof Iteration it && it.aggregated() && it.gpuTimeNs() > 0) {
                steps++;
                kernelPerStep += it.gpuTimeNs();
            }
        }
        String model = "the steady steps' kernel time × the share " + e.target().label() + " saves ("
                + Units.pct(100 * share) + ": GEMM/convolution/attention kernels " + Units.num(round1(e.speedup()))
                + "× faster from " + e.peaks().generation() + " peak throughput, tensor cores at "
                + Units.num(100 * TC_EFFICIENCY) + "% of the ratio from CUDA cores; other kernels unchanged)";
        if (!gpuBound) model += NOT_GPU_BOUND;
        if (steps > 0 && s != null && s.avgDurationNs() > 0) {
            double lost = kernelPerStep / steps * share;
            return Impact.perStep(lost, s.avgDurationNs(), gpuBound ? lost : 0, model);
        }
        double lost = e.kernelNs() * share;
        return Cost.ofTotal(lost, gpuBound ? lost : 0, s, b, model);
    }

    /**
     * The GPU set the step's pace: the measured binding side is the GPU's, or kernels are busy for
     * {@link #GPU_BOUND_UTILIZATION_PCT} of the range (a profile without steps, or a loop that syncs every step).
     */
    public static boolean gpuBound(IterationSummary s, TimeBreakdown b) {
        if (s != null && IterationSummary.GPU_BOUND.equals(s.binding())) return true;
        // A loop that syncs at the end of every step keeps its host window a little longer than the GPU's span (the
        // host waits, then launches again), so the spans call it host-bound however busy the GPU is: kernels that
        // fill most of the capture say otherwise (the profiled host is slower than the real one, so the real loop is
        // at least as GPU-bound). The H200 GPT in FP32 with its step windows 3 % longer: 95.5 % busy.
        return b != null && b.gpuUtilizationPct() >= GPU_BOUND_UTILIZATION_PCT;
    }

    private static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
