package dlproflint.packs.cost;

import dlproflint.facts.AllocStat;
import dlproflint.facts.DataLoaderStat;
import dlproflint.facts.GpuGap;
import dlproflint.facts.GpuTimeline;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.KernelFact;
import dlproflint.facts.OpFact;
import dlproflint.facts.OpKind;
import dlproflint.facts.SyncApiStat;
import dlproflint.facts.TimeBreakdown;
import dlproflint.findings.Impact;

import java.util.Collection;
import java.util.List;

/**
 * The cost models of the built-in rules: what a problem costs, estimated from the facts, as an {@link Impact}
 * (per step when the profile was split into steps, else over the analysed range). One method per model, named
 * after what it measures; each rule's help page ("Cost estimate") explains the model it uses and why.
 *
 * <p>Op, kernel, copy and memset facts are totals over the aggregated iterations, so they are divided by the
 * number of aggregated steps ({@link Impact#fromTotal}); timeline facts (synchronisation calls, allocations,
 * gaps) carry their own steady-state totals.
 */
public final class Cost {
    /**
     * Speed-up of a tensor-core-eligible convolution or GEMM when it runs in FP16/BF16 on tensor cores instead of
     * FP32 CUDA cores. Conservative: a V100 peaks at 125 TFLOPS on tensor cores against 15.7 in FP32 (8×), NVIDIA
     * reports 2× for a ResNet-50 training step ("Introduction to Nsight Systems", AMP case) and "up to 3× overall"
     * (DLProf user guide, 5.1); memory-bound layers gain less.
     */
    public static final double TC_SPEEDUP_CONV_GEMM = 2.0;
    /** Other eligible ops (RNN cells, attention, einsum...): more memory-bound, so less. */
    public static final double TC_SPEEDUP_OTHER = 1.5;
    /**
     * Share of convolution GPU time cuDNN's algorithm search recovers over its heuristic choice. An assumption, at
     * the low end of what autotuning gains on fixed shapes (the heuristic is usually close, sometimes far off).
     */
    public static final double CUDNN_SEARCH_GAIN = 0.10;
    /**
     * Share of conversion-kernel time a fix removes: autocast over the whole region and weights kept in the compute
     * precision remove most casts, but the input batch and the loss still convert.
     */
    public static final double CONVERSION_AVOIDABLE = 0.5;

    private Cost() {
    }

    /** Totals over the aggregated range: per step when the profile has steps, else over the breakdown's range. */
    public static Impact ofTotal(double lostNs, double savingNs, IterationSummary s, TimeBreakdown b, String model) {
        return Impact.fromTotal(lostNs, savingNs, s, b.wallNs(), model);
    }

    // ---------------------------------------------------------------- tensor cores

    /** The expected speed-up of one op type on tensor cores ({@link #TC_SPEEDUP_CONV_GEMM}, {@link #TC_SPEEDUP_OTHER}). */
    public static double tensorCoreSpeedup(String opType) {
        return OpKind.of(opType).gemmOrConv() ? TC_SPEEDUP_CONV_GEMM : TC_SPEEDUP_OTHER;
    }

    /** GPU time the op would save on tensor cores: its GPU time × (1 − 1/speed-up of its type). */
    public static double tensorCoreSavingNs(OpFact op) {
        return op.gpuTime().total() * (1 - 1 / tensorCoreSpeedup(op.type() != null ? op.type() : op.name()));
    }

    /** amp-not-used: every eligible op that ran without tensor cores. */
    public static Impact tensorCores(Collection<?> ops, IterationSummary s, TimeBreakdown b) {
        double lost = 0;
        int n = 0;
        for (Object o : ops) {
            if (o instanceof OpFact op) {
                lost += tensorCoreSavingNs(op);
                n++;
            }
        }
        return ofTotal(lost, lost, s, b, "GPU time of " + n + " eligible FP32 op(s) × (1 − 1/speed-up): "
                + num(TC_SPEEDUP_CONV_GEMM) + "× for convolutions and GEMMs, " + num(TC_SPEEDUP_OTHER) + "× for other ops");
    }

    /** bad-tensor-shape: one op that ran without tensor cores. */
    public static Impact tensorCores(OpFact op, IterationSummary s, TimeBreakdown b) {
        double lost = tensorCoreSavingNs(op);
        return ofTotal(lost, lost, s, b, "GPU time of the op × (1 − 1/" + num(tensorCoreSpeedup(op.type() != null ? op.type() : op.name()))
                + "), its expected speed-up on tensor cores");
    }

    /** cudnn-benchmark-off: the share of convolution time the algorithm search recovers. */
    public static Impact cudnnSearch(long convGpuNs, IterationSummary s, TimeBreakdown b) {
        double lost = convGpuNs * CUDNN_SEARCH_GAIN;
        return ofTotal(lost, lost, s, b, "convolution GPU time × " + num(100 * CUDNN_SEARCH_GAIN)
                + "% (assumed gain of cuDNN's algorithm search)");
    }

    // ---------------------------------------------------------------- GPU idle

    /**
     * dataloader-bound: what a loader that keeps up saves, from the measurement layer's replay of the aggregated steps
     * (the loop's DataLoader calls taken off its host clock, the profiler's own host cost too; GPU work unchanged), where
     * the reader replayed them ({@link DataLoaderStat#replayed}); otherwise data loading while no GPU work ran, the
     * breakdown's data-loader share of the profiled range.
     */
    public static Impact dataLoading(TimeBreakdown b, IterationSummary s, Collection<?> loaders) {
        for (Object o : loaders) {
            if (o instanceof DataLoaderStat d && d.replayed() && s != null && s.aggregated() > 0) {
                return replayed(d.savingNs() / (double) s.aggregated(), d.replayStepNs(), "replayed step with the loop's DataLoader calls minus"
                        + " without them, the batch ready when asked for (host and GPU replayed from the trace, the profiler's"
                        + " own host cost taken out)");
            }
        }
        double lost = b.wallNs() * b.dataloaderPct() / 100.0;
        return ofTotal(lost, lost, s, b, "time in the data loader while the GPU ran nothing");
    }

    /**
     * underutilized-gpu: the GPU's idle time over the range; a fix of the largest non-GPU category (the one its
     * advice addresses) recovers at most that category's share. A host-bound loop without the profiler's own host
     * cost where the reader estimated it ({@link UnprofiledStep}).
     */
    public static Impact gpuIdle(TimeBreakdown b, IterationSummary s, UnprofiledStep u) {
        double lost = b.wallNs() * Math.max(0, 100 - b.gpuUtilizationPct()) / 100.0;
        double saving = b.wallNs() * b.topNonGpuPct() / 100.0;
        return u.idle(lost, saving, s, b, "GPU idle time (100% − GPU utilization); a fix of the largest non-GPU share ("
                + b.topNonGpuCategory() + ") recovers at most that share");
    }

    /**
     * imbalanced-gpus: the GPU waits for the busiest one for the difference of their kernel time; evening the work
     * out recovers half of it (both meet in the middle).
     */
    public static Impact imbalance(long busiestNs, long thisNs, IterationSummary s, TimeBreakdown b) {
        double lost = Math.max(0, busiestNs - thisNs);
        return ofTotal(lost, lost / 2, s, b, "kernel time this GPU is short of the busiest GPU (it waits that long); "
                + "balancing recovers half of it");
    }

    /** gpu-gaps: GPU idle time in the gaps, per step over the aggregated steps, else over the device's active span. */
    public static Impact gaps(List<?> gaps, GpuTimeline t, IterationSummary s) {
        boolean steps = s.total() > 1 && s.aggregated() > 0 && s.avgDurationNs() > 0;
        long total = 0;
        for (Object o : gaps) {
            GpuGap g = (GpuGap) o;
            if (!steps || g.iteration() >= s.aggStart() && g.iteration() <= s.aggStop()) total += g.durationNs();
        }
        String model = "GPU idle time in the reported gaps";
        return steps ? Impact.perStep((double) total / s.aggregated(), s.avgDurationNs(), (double) total / s.aggregated(), model)
                : Impact.overRun(total, t.spanNs(), total, model);
    }

    /** gpu-low-utilization: idle time inside the low periods, over the device's active span. */
    public static Impact lowUtilization(List<GpuTimeline.LowPeriod> low, GpuTimeline t) {
        double idle = 0;
        for (GpuTimeline.LowPeriod p : low) idle += p.durationNs() * Math.max(0, 100 - p.utilizationPct()) / 100.0;
        return Impact.overRun(idle, t.spanNs(), idle, "GPU idle time inside the low-utilization periods");
    }

    /**
     * launch-bound: for kernels that run shorter than the call that launches them, the GPU waits the difference at
     * every launch; fusion or CUDA graphs remove that wait.
     */
    public static Impact launchWait(List<?> kernels, IterationSummary s, TimeBreakdown b) {
        double wait = 0;
        for (Object o : kernels) {
            KernelFact k = (KernelFact) o;
            if (k.apiTime().count() > 0 && k.gpuTime().count() > 0 && k.gpuTime().avg() < k.apiTime().avg()) {
                wait += (k.apiTime().avg() - k.gpuTime().avg()) * k.gpuTime().count();
            }
        }
        return ofTotal(wait, wait, s, b, "(launch call − kernel duration) × launches, for kernels shorter than their launch");
    }

    // ---------------------------------------------------------------- host blocked

    /**
     * What host sync points cost per step when no replay priced them (one model for {@code nsys/sync-api} and
     * {@code pytorch/host-sync-in-step}, issue 24): in a host-bound loop the host is the bottleneck, so the time it
     * spent blocked in the calls is what they cost (the GPU would idle after them anyway); in a GPU-bound loop the GPU
     * is, so the GPU idle they leave (the queue drained, waiting for the host's next launch) is.
     */
    public static double syncCostPerStep(double blockedPerStepNs, double gpuIdlePerStepNs, IterationSummary s) {
        // A sync blocks the host until the GPU drains (blocked), then the GPU idles while the host runs ahead again
        // (idle after). Without the sync the two overlap: the step loses min(blocked, idle after) -- the blocked time
        // where the host had little left to do, the idle where the GPU had. Blocked time alone counts the GPU's own
        // work as the cost, since the host waits on it (a loop syncing every step looks host-bound for that reason).
        boolean gpuBound = s != null && IterationSummary.GPU_BOUND.equals(s.binding());
        double blocked = Math.max(0, blockedPerStepNs);
        double idle = Math.max(0, gpuIdlePerStepNs);
        return gpuBound || idle == 0 ? (gpuBound ? idle : blocked) : Math.min(blocked, idle);
    }

    /**
     * sync-api: {@link #syncCostPerStep} of the calls during the steady iterations (else over the run, where the loop's
     * binding side is unknown: the host time blocked).
     */
    public static Impact hostBlocked(SyncApiStat st, IterationSummary s) {
        if (s.total() > 1 && st.steadyIterations() > 0 && s.avgDurationNs() > 0) {
            double blocked = (double) st.steadyNs() / st.steadyIterations();
            double idle = (double) st.steadyIdleAfterNs() / st.steadyIterations();
            double cost = syncCostPerStep(blocked, idle, s);
            return Impact.perStep(cost, s.avgDurationNs(), cost, "host time blocked in " + st.api()
                    + " during the steady iterations (host-bound loop) or the GPU idle after the calls (GPU-bound loop)");
        }
        return Impact.overRun(st.totalNs(), st.wallNs(), st.totalNs(), "host time blocked in " + st.api() + " over the run");
    }

    /** alloc-in-loop: host time in the allocation calls per steady iteration. */
    public static Impact allocations(AllocStat a, IterationSummary s) {
        if (a.steadyIterations() > 0 && s.avgDurationNs() > 0) {
            double perStep = (double) a.steadyNs() / a.steadyIterations();
            return Impact.perStep(perStep, s.avgDurationNs(), perStep, "host time in " + a.api() + " per steady iteration");
        }
        return Impact.overRun(a.totalNs(), a.wallNs(), a.totalNs(), "host time in " + a.api() + " over the run");
    }

    /**
     * pageable-async-memcpy, sync-memcpy, sync-memset: the host blocks for the duration of each operation; done
     * asynchronously from pinned memory, that time overlaps with compute.
     */
    public static Impact blockingTransfers(long gpuNs, String what, IterationSummary s, TimeBreakdown b) {
        return ofTotal(gpuNs, gpuNs, s, b, "GPU time of the " + what + ", which the host waits for and could overlap");
    }

    /** precision-conversions: conversion-kernel time, of which {@link #CONVERSION_AVOIDABLE} is avoidable. */
    public static Impact conversions(long conversionNs, IterationSummary s, TimeBreakdown b) {
        return ofTotal(conversionNs, conversionNs * CONVERSION_AVOIDABLE, s, b,
                "GPU time of conversion and transpose kernels; keeping tensors in the compute precision removes about "
                        + num(100 * CONVERSION_AVOIDABLE) + "% of it");
    }

    /** 2 as {@code 2}, 1.5 as {@code 1.5}. */
    private static String num(double v) {
        return new java.math.BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
    }

    /** A saving per step of the replayed step (the loop without the profiler's overhead), which it is a share of. */
    static Impact replayed(double savingPerStepNs, double replayStepNs, String model) {
        return Impact.perStep(savingPerStepNs, replayStepNs, savingPerStepNs, model);
    }
}
