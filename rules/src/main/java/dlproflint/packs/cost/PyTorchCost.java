package dlproflint.packs.cost;

import dlproflint.facts.ApiStat;
import dlproflint.facts.CollectiveStat;
import dlproflint.facts.DistributedSetup;
import dlproflint.facts.HostSyncStat;
import dlproflint.facts.InputCopyStat;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.KernelDurations;
import dlproflint.facts.KernelOccupancy;
import dlproflint.facts.StepKernelSequence;
import dlproflint.facts.TimeBreakdown;
import dlproflint.findings.Impact;
import dlproflint.findings.Units;

import java.util.Collection;

/**
 * The cost models of the {@code pytorch} pack, next to the shared ones of {@link Cost}: what each problem costs,
 * from the PyTorch signals (idle breakdown, launches, host syncs, occupancy...), as an {@link Impact} per
 * aggregated step (over the analysed range for a profile without steps). Every rule's help page explains its
 * model under "Cost estimate". The facts are totals over the aggregated range, hence {@link Cost#ofTotal}.
 */
public final class PyTorchCost {
    /**
     * TF32 over FP32 for a GEMM or convolution: an A100 peaks at 156 TFLOPS in TF32 against 19.5 in FP32 (8×);
     * NVIDIA reports 2-6× on training workloads ("Accelerating AI Training with TF32 Tensor Cores", 2020). The
     * conservative end.
     */
    public static final double TF32_SPEEDUP = 2.0;
    /**
     * Share of exposed communication a change of overlap or frequency recovers (DDP bucket size, gradient
     * accumulation with {@code no_sync()}, a compression hook). An assumption: full overlap is rare.
     */
    public static final double COMM_RECOVERABLE = 0.5;
    /** Share of the time kernels leave SMs unused that a larger batch or fused kernels win back. An assumption. */
    public static final double SM_IDLE_RECOVERABLE = 0.5;
    /** Share of Gloo's collective time NCCL saves on GPUs: NCCL reduces on the GPU without host round trips. Conservative. */
    public static final double NCCL_SAVING = 0.5;

    private PyTorchCost() {
    }

    /** data-parallel-not-ddp: host time replicating the module and scattering/gathering every step. */
    public static Impact replication(DistributedSetup d, IterationSummary s, TimeBreakdown b) {
        return Cost.ofTotal(d.replicationNs(), d.replicationNs(), s, b,
                "host time in DataParallel's replicate/scatter/gather ops, which DDP does not repeat every step");
    }

    /** gloo-backend-on-gpu: time in Gloo collectives, of which NCCL saves {@link #NCCL_SAVING}. */
    public static Impact glooCollectives(DistributedSetup d, IterationSummary s, TimeBreakdown b) {
        return Cost.ofTotal(d.glooNs(), d.glooNs() * NCCL_SAVING, s, b, "host time in gloo:* collectives; NCCL saves about "
                + Units.num(100 * NCCL_SAVING) + "% of it");
    }

    /** communication-heavy: exposed communication, of which {@link #COMM_RECOVERABLE} is recoverable. */
    public static Impact exposedCommunication(CollectiveStat c, IterationSummary s, TimeBreakdown b) {
        return Impact.fromTotal(c.exposedNs(), c.exposedNs() * COMM_RECOVERABLE, s, c.windowNs(),
                "collective kernel time with no other GPU work running; better overlap recovers about "
                        + Units.num(100 * COMM_RECOVERABLE) + "% of it");
    }

    /** memory-near-capacity: host time in the allocator's device calls (cache flushes and retries near capacity). */
    public static Impact allocatorCalls(Collection<?> apiStats, IterationSummary s, TimeBreakdown b) {
        long ns = 0;
        for (Object o : apiStats) {
            ApiStat a = (ApiStat) o;
            if ("malloc".equals(a.category()) || "free".equals(a.category())) ns += a.time().total();
        }
        return Cost.ofTotal(ns, ns, s, b, "host time in cudaMalloc/cudaFree (the caching allocator flushing and retrying"
                + " near capacity); the risk of an out-of-memory error is not a time");
    }

    /** low-achieved-occupancy: kernel time × the share of SMs the launch configurations leave unused. */
    public static Impact smIdle(KernelOccupancy o, IterationSummary s, TimeBreakdown b) {
        double lost = o.kernelNs() * Math.max(0, 100 - o.smEfficiencyPct()) / 100.0;
        return Cost.ofTotal(lost, lost * SM_IDLE_RECOVERABLE, s, b, "kernel time × (1 − est. SM efficiency); larger batches or "
                + "fused kernels recover about " + Units.num(100 * SM_IDLE_RECOVERABLE) + "% of it");
    }

    /** cpu-bound-launches: the GPU idle in short host-wait gaps, waiting for the next launch. */
    public static Impact launchWait(UnprofiledIdle i, IterationSummary s, TimeBreakdown b) {
        double wait = i.shortHostWaitNs();
        return i.impact(wait, wait, s, b,
                "GPU idle in host-wait gaps under 50 µs on the busiest stream (waiting for the next launch call)");
    }

    /**
     * short-kernels: the launch gaps after short kernels, which fusion removes with the kernels; without the profiler's
     * own host cost, in the proportion it left of the busiest stream's launch gaps ({@link UnprofiledIdle}).
     */
    public static Impact shortKernelGaps(KernelDurations d, double us, UnprofiledIdle idle, IterationSummary s,
                                         TimeBreakdown b) {
        long gap = d.shortGapNs(us);
        String model = "idle gaps (up to 30 µs each) after kernels under " + Units.num(KernelDurations.boundUs(us))
                + " µs, which fusing them removes";
        // launch gaps: the capture lengthened them as it did the busiest stream's (none: as measured)
        if (idle == null) return Cost.ofTotal(gap, gap, s, b, model);
        return idle.step().scaled(gap, gap, idle.launchGapRatio(), s, b, model);
    }

    /** cuda-graph-candidate: launch overhead (short host waits and kernel-to-kernel gaps) of the repeating steps. */
    public static Impact graphReplay(UnprofiledIdle i, StepKernelSequence q, IterationSummary s, TimeBreakdown b) {
        double lost = i.launchGapNs() * (double) q.identicalSteps() / Math.max(1, q.steps());
        return i.impact(lost, lost, s, b, "launch gaps (host waits under 50 µs and kernel waits) in the identical steps,"
                + " which one graph launch per step removes");
    }

    /**
     * tf32-off: the FP32 GEMMs and convolutions on TF32 tensor cores, by the GPU generation's throughput
     * ({@link PrecisionCost}, promised only where the step is GPU-bound); without a known generation, their time ×
     * (1 − 1/{@link #TF32_SPEEDUP}).
     */
    public static Impact tf32(PrecisionCost.Estimate e, long fp32Ns, Collection<?> iterations, IterationSummary s,
                              TimeBreakdown b) {
        if (e != null && e.convertibleNs() > 0) return PrecisionCost.impact(e, iterations, s, b);
        double lost = fp32Ns * (1 - 1 / TF32_SPEEDUP);
        boolean promised = PrecisionCost.gpuBound(s, b) || s == null || s.binding() == null;
        return Cost.ofTotal(lost, promised ? lost : 0, s, b, "FP32 GEMM/convolution GPU time × (1 − 1/"
                + Units.num(TF32_SPEEDUP) + "), the conservative TF32 speed-up" + (promised ? "" : PrecisionCost.NOT_GPU_BOUND));
    }

    /**
     * fp16-not-bf16: the loss-scaling work BF16 does without (GradScaler's unscale and update ops) and, where {@code h}
     * holds GradScaler's inf check read on the host (an optimizer that is not fused) and the replay priced the sync
     * points, those sync points' share of that saving ({@link #scalerSyncSavingNs}), on the replayed step;
     * {@code host-sync-in-step} names them and keeps only the rest. Without a replay the model says that rule prices them.
     */
    public static Impact lossScaling(long scalerNs, HostSyncStat h, IterationSummary s, TimeBreakdown b) {
        String model = "GPU and host time of GradScaler's unscale/update ops, which BF16 does not need";
        if (h == null || h.scalerSyncPoints() <= 0) return Cost.ofTotal(scalerNs, scalerNs, s, b, model);
        double sync = scalerSyncSavingNs(h);
        if (sync <= 0 || s == null || s.aggregated() <= 0) {
            return Cost.ofTotal(scalerNs, scalerNs, s, b, model + "; its inf check's " + h.scalerSyncPoints()
                    + " host sync points are priced by pytorch/host-sync-in-step");
        }
        // on the replayed step, as the sync points' saving is: the ops' time per step and their share of that saving
        double ops = scalerNs / (double) s.aggregated();
        return Impact.perStep(ops + sync, h.replayStepNs(), ops + sync, model + ", and the " + Units.duration(sync)
                + " per step that removing its inf check's " + h.scalerSyncPoints() + " host sync points saves (their share,"
                + " by count, of what the replay says the step's sync points cost; pytorch/host-sync-in-step names them)");
    }

    /**
     * GradScaler's share of what removing the sync points saves per step: in proportion to its sync points' count, the
     * replay pricing all of them together; 0 without a replay or without such sync points.
     */
    static double scalerSyncSavingNs(HostSyncStat h) {
        if (h.scalerSyncPoints() <= 0 || h.savingNs() <= 0 || h.replayStepNs() <= 0 || h.steps() <= 0 || h.syncPoints() <= 0) return 0;
        return h.savingNs() / (double) h.steps() * Math.min(1, h.scalerSyncPoints() / (double) h.syncPoints());
    }

    /**
     * host-sync-in-step: what removing the sync points saves, from the measurement layer's replay of host and GPU
     * without the profiler's overhead (the overlap the syncs destroy: the host waiting for the queue to drain, and the
     * GPU waiting while the host launches again, where that was not idle anyway); without a replay,
     * {@link Cost#syncCostPerStep} (the model {@code nsys/sync-api} uses for the same calls).
     */
    public static Impact hostSync(HostSyncStat h, IterationSummary s, TimeBreakdown b) {
        if (h.savingNs() >= 0 && h.replayStepNs() > 0 && h.steps() > 0) {
            String model = "replayed step with the sync points minus without them"
                    + " (host and GPU replayed from the trace, the profiler's own host cost taken out)";
            double saving = h.savingNs() / (double) h.steps();
            if (h.scalerSyncPoints() <= 0) return Cost.replayed(saving, h.replayStepNs(), model);
            // GradScaler's inf check goes with FP16 loss scaling: fp16-not-bf16 counts its share, so it is claimed once
            return Impact.perStep(saving, h.replayStepNs(), saving - scalerSyncSavingNs(h), model + "; " + h.scalerSyncPoints()
                    + " of the " + h.syncPoints() + " sync points are GradScaler's inf check: their share of the saving"
                    + " (by count) is counted by pytorch/fp16-not-bf16, which removes them with the scaler");
        }
        if (s != null && h.steps() > 0 && s.avgDurationNs() > 0) {
            double cost = Cost.syncCostPerStep(h.blockedNs() / (double) h.steps(), Math.max(0, h.gpuIdleNs()) / (double) h.steps(), s);
            return Impact.perStep(cost, s.avgDurationNs(), cost, "host sync cost per step: the smaller of the host time blocked in the sync points"
                    + " and the GPU idle after them (host-bound loop), the GPU idle from each until the GPU's next operation (GPU-bound loop)");
        }
        double idle = Math.max(0, h.gpuIdleNs());
        return Cost.ofTotal(idle, idle, s, b, "GPU idle from each sync point until its next operation (the queue drained)");
    }

    /** idle-breakdown: the stream's idle time; a fix of its dominant cause recovers at most that cause's share. */
    public static Impact idle(UnprofiledIdle i, IterationSummary s, TimeBreakdown b) {
        double idle = i.corrected() ? i.idleNs() : i.breakdown().idleNs();
        return i.impact(idle, i.dominantNs(), s, b, "idle time of the busiest stream; fixing its dominant cause ("
                + i.dominantCause() + ") recovers at most that part");
    }

    /**
     * pin-memory-off: what pinned, non-blocking batch copies save, from the measurement layer's replay (the host no
     * longer waits for each copy and the queue before it; the copy runs at the pinned rate); without a replay, the
     * host time blocked in the pageable copies.
     */
    public static Impact pageableCopies(InputCopyStat c, IterationSummary s, TimeBreakdown b) {
        if (c.pageableSavingNs() >= 0 && c.replayStepNs() > 0 && s != null && s.aggregated() > 0) {
            String release = c.pageableReleaseNs() > 0
                    ? ", and without the " + Units.duration(c.pageableReleaseNs() / (double) s.aggregated()) + " per step the loop's"
                      + " thread spent releasing the previous pageable batch before each copy" : "";
            return Cost.replayed(c.pageableSavingNs() / (double) s.aggregated(), c.replayStepNs(), "replayed step with the pageable copies"
                    + " minus with pinned, non-blocking ones" + release
                    + " (host and GPU replayed from the trace, the profiler's own host cost taken out)");
        }
        return Cost.ofTotal(c.pageableHostNs(), c.pageableHostNs(), s, b,
                "host time blocked in the pageable batch copies; pinned, non-blocking copies overlap with compute");
    }
}
