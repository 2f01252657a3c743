package dlproflint.packs.dlprof;

import dlproflint.facts.GpuInfo;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.KernelFact;
import dlproflint.facts.OpFact;
import dlproflint.facts.TimeBreakdown;
import dlproflint.findings.Impact;
import dlproflint.packs.cost.Cost;
import dlproflint.packs.cost.PrecisionCost;

import java.util.Collection;

/**
 * What {@code dlprof/amp-not-used} says and estimates, by what the profile shows: kernels on a GPU of known
 * generation ({@link PrecisionCost}: the saving from the kernels themselves, only where the step is GPU-bound), ops
 * with GPU time but no kernel detail or an unknown GPU (the ops' GPU time and a conservative speed-up,
 * {@link Cost#tensorCores}), or a DLProf database without kernel rows (no cost to measure, and the message says so).
 *
 * @param messageId      {@code fp32-only}, {@code host-bound} or {@code no-kernel-data}
 * @param impact         the cost, null when nothing measures it
 * @param largest        the eligible op with the most GPU time
 * @param convertibleNs  GEMM/convolution/attention kernel time mixed precision speeds up (0 without kernels)
 * @param kernelNs       all kernel time on the GPU judged
 * @param speedup        the mean speed-up of those kernels (1 without kernels)
 * @param gpuBound       the step is GPU-bound (a saving is promised)
 */
public record AmpAdvice(String messageId, Impact impact, OpFact largest, long convertibleNs, long kernelNs,
                        double speedup, boolean gpuBound) {
    private static final String ENABLE = "Enable automatic mixed precision. PyTorch: wrap the forward pass and loss in "
            + "torch.autocast(device_type=\"cuda\", dtype=torch.bfloat16) (Ampere and newer; no loss scaling needed), or "
            + "dtype=torch.float16 with torch.cuda.amp.GradScaler before Ampere. TensorFlow: "
            + "tf.keras.mixed_precision.set_global_policy(\"mixed_bfloat16\") (\"mixed_float16\" before Ampere). "
            + "See https://developer.nvidia.com/automatic-mixed-precision";

    public static AmpAdvice of(Collection<?> ops, Collection<?> kernels, Collection<?> gpus, Collection<?> iterations,
                               IterationSummary s, TimeBreakdown b) {
        OpFact top = null;
        for (Object o : ops) {
            OpFact op = (OpFact) o;
            if (top == null || op.gpuTime().total() > top.gpuTime().total()) top = op;
        }
        boolean gpuBound = PrecisionCost.gpuBound(s, b);
        PrecisionCost.Estimate e = kernels.isEmpty() ? null : estimate(kernels, gpus);
        if (e != null && e.convertibleNs() > 0) {
            return new AmpAdvice(gpuBound ? "fp32-only" : "host-bound", PrecisionCost.impact(e, iterations, s, b), top,
                    e.convertibleNs(), e.kernelNs(), Math.round(e.speedup() * 10) / 10.0, gpuBound);
        }
        long opGpuNs = 0;
        for (Object o : ops) opGpuNs += ((OpFact) o).gpuTime().total();
        if (kernels.isEmpty() && opGpuNs == 0) {
            return new AmpAdvice("no-kernel-data", null, top, 0, 0, 1, gpuBound);
        }
        Impact ops0 = Cost.tensorCores(ops, s, b);
        if (!gpuBound && s != null && s.binding() != null) {
            ops0 = new Impact(ops0.lostNs(), ops0.basis(), ops0.periodNs(), 0, ops0.model() + "; the step is host-bound, so no saving is promised");
        }
        return new AmpAdvice(gpuBound || s == null || s.binding() == null ? "fp32-only" : "host-bound", ops0, top, 0, 0, 1,
                gpuBound);
    }

    /** The estimate on the GPU with the most kernel time whose generation is known; null when none is. */
    private static PrecisionCost.Estimate estimate(Collection<?> kernels, Collection<?> gpus) {
        PrecisionCost.Estimate best = null;
        for (Object o : gpus) {
            PrecisionCost.Estimate e = PrecisionCost.estimate(kernels, (GpuInfo) o, PrecisionCost.Target.HALF);
            if (e != null && (best == null || e.kernelNs() > best.kernelNs())) best = e;
        }
        return best;
    }

    public String recommendation() {
        if ("host-bound".equals(messageId)) {
            return "Fix the launch overhead first, not the precision: the GPU waits for the host in this loop, so faster "
                    + "kernels only make it wait longer, and autocast adds cast kernels (more launches); see "
                    + "pytorch/cpu-bound-launches and pytorch/cuda-graph-candidate (torch.compile(model, "
                    + "mode=\"reduce-overhead\"), CUDA graphs, a larger batch). Once the step is GPU-bound: " + ENABLE;
        }
        return ENABLE;
    }
}
