package dlproflint.synth;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A training loop to synthesise, by size: {@code iterations × opsPerIteration × kernelsPerOp} kernel launches
 * (per GPU), each with its {@code cudaLaunchKernel} call, inside the op's NVTX ranges. Build with
 * {@link #builder()}; see {@link Workload#generate(WorkloadSpec, java.nio.file.Path)}.
 *
 * @param kernelsPerOp       launches per op; 0 = the op's natural kernels (1 or 2)
 * @param backward           the second half of every iteration's ops are autograd backward nodes, run on the
 *                           {@code pt_autograd_0} thread as PyTorch does
 * @param inputBytes         bytes copied host→device at the start of every iteration (0 = none)
 * @param dataloaderGapNs    CPU time per iteration with nothing queued on the GPU (data loading)
 * @param modelConfig        the DLProf plugin's {@code {"model_config": {...}}} contents, or null for none
 * @param stepJitterPct      run-to-run noise: every iteration's kernel and data-loader times are scaled by one factor
 *                           drawn uniformly from 1 ± this percentage (seeded), on top of the ±10 % of every launch
 * @param opSlowdown         op name ({@link OpTemplate#op()}) → factor its kernels' GPU times are multiplied by,
 *                           forward and backward (a regression to find: {@code Map.of("linear", 3.0)})
 * @param stepMarkers        how each iteration is marked: not at all, or by a {@code ProfilerStep#N} NVTX range (what
 *                           torch.profiler's {@code prof.step()} records under {@code emit_nvtx}) with its message in
 *                           the {@code text} column or as a registered string in {@code StringIds}
 * @param dataLoaderRange    every iteration's data loading (its CPU gap) sits in an
 *                           {@code enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__} range, as torch.profiler
 *                           records it
 * @param streamSyncPerIteration a {@code cudaStreamSynchronize} at the end of every iteration ({@code loss.item()})
 * @param endOrderedNvtx     NVTX ranges stored when they end, as nsys stores push/pop ranges
 */
public record WorkloadSpec(NsysSchema schema, GpuModel gpu, int gpus, int installedGpus, long seed, int iterations,
                           int opsPerIteration, int kernelsPerOp, List<OpTemplate> ops, boolean emitNvtx,
                           boolean dlprofMarkers, Map<String, Object> modelConfig, boolean tensorCores,
                           boolean backward, long inputBytes, boolean pageableMemcpy, boolean deviceSyncPerIteration,
                           long dataloaderGapNs, double stepJitterPct, Map<String, Double> opSlowdown,
                           StepMarkers stepMarkers, boolean dataLoaderRange, boolean streamSyncPerIteration,
                           boolean endOrderedNvtx) {

    /** How iterations are marked in the NVTX rows. */
    public enum StepMarkers { NONE, PROFILER_STEP_TEXT, PROFILER_STEP_REGISTERED }

    public WorkloadSpec {
        if (iterations < 0 || opsPerIteration < 0 || kernelsPerOp < 0 || gpus < 1 || installedGpus < gpus) {
            throw new IllegalArgumentException("negative size or bad GPU counts");
        }
        ops = List.copyOf(ops);
        if (ops.isEmpty()) throw new IllegalArgumentException("no op templates");
        if (stepJitterPct < 0 || stepJitterPct >= 100) throw new IllegalArgumentException("stepJitterPct must be in [0, 100)");
        opSlowdown = opSlowdown == null ? Map.of() : Map.copyOf(opSlowdown);
        if (stepMarkers == null) stepMarkers = StepMarkers.NONE;
        // insertion order kept (Map.copyOf's order changes from run to run; the JSON must not)
        modelConfig = modelConfig == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(modelConfig));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Kernel launches the spec produces when {@code kernelsPerOp > 0}. */
    public long expectedKernels() {
        return (long) iterations * opsPerIteration * kernelsPerOp * gpus;
    }

    /**
     * The bundled example ({@code examples/resnet-like-fp32.sqlite}): a small ResNet-like fp32 training loop on
     * one V100 showing the classic problems — fp32 convolutions and linears that could use tensor cores,
     * pageable host→device copies, {@code cudaDeviceSynchronize} every iteration, a data-loader gap that
     * leaves the GPU idle most of the time, and {@code cudnn.benchmark} off in the model config.
     */
    public static WorkloadSpec resnetLikeFp32() {
        Map<String, Object> cfg = new LinkedHashMap<>();
        cfg.put("num_workers", 0);
        cfg.put("pin_memory", false);
        cfg.put("cudnn_benchmark_disabled", true);
        cfg.put("detect_anomaly", false);
        cfg.put("emit_nvtx", true);
        cfg.put("amp_enabled", false);
        return builder().gpu(GpuModel.V100_SXM2_16GB).seed(20240601L).iterations(10).opsPerIteration(24)
                .kernelsPerOp(0).emitNvtx(true).dlprofMarkers(true).modelConfig(cfg).tensorCores(false)
                .backward(true).inputBytes(32L * 3 * 224 * 224 * 4).pageableMemcpy(true).deviceSync(true)
                .dataloaderGapNs(6_000_000L).build();
    }

    /** The benchmark profile: 1,000,000 kernel launches (1000 iterations × 100 ops × 10 kernels) on one GPU. */
    public static WorkloadSpec benchmark1M() {
        return builder().gpu(GpuModel.A100_SXM4_40GB).seed(1L).iterations(1000).opsPerIteration(100).kernelsPerOp(10)
                .emitNvtx(true).dlprofMarkers(false).modelConfig(Collections.singletonMap("emit_nvtx", true)).tensorCores(true)
                .backward(true).inputBytes(1L << 20).pageableMemcpy(false).deviceSync(false).dataloaderGapNs(200_000L)
                .build();
    }

    /**
     * A PyTorch loop as users export it with {@code emit_nvtx} (the shape issue 25 measured): one NVTX range per
     * aten op and its callees ({@code aten::conv2d, seq = N}: nearly every text distinct), backward nodes on the
     * autograd thread, a {@code ProfilerStep#N} and a DataLoader range per step, a pageable input copy and a
     * {@code cudaStreamSynchronize} per step, ranges stored when they end. {@code iterations} × 100 ops × 2
     * kernels: 5,000 iterations give 1,000,000 kernels.
     */
    public static WorkloadSpec emitNvtx(int iterations) {
        return builder().gpu(GpuModel.A100_SXM4_40GB).seed(25L).iterations(iterations).opsPerIteration(100)
                .kernelsPerOp(2).emitNvtx(true).dlprofMarkers(false).modelConfig(null).tensorCores(true).backward(true)
                .inputBytes(1L << 20).pageableMemcpy(true).deviceSync(false).dataloaderGapNs(200_000L)
                .stepMarkers(StepMarkers.PROFILER_STEP_TEXT).dataLoaderRange(true).streamSync(true).endOrderedNvtx(true)
                .build();
    }

    /** A builder holding this spec's values (to change a few of them). */
    public Builder toBuilder() {
        return builder().schema(schema).gpu(gpu).gpus(gpus).installedGpus(installedGpus).seed(seed).iterations(iterations)
                .opsPerIteration(opsPerIteration).kernelsPerOp(kernelsPerOp).ops(ops).emitNvtx(emitNvtx)
                .dlprofMarkers(dlprofMarkers).modelConfig(modelConfig).tensorCores(tensorCores).backward(backward)
                .inputBytes(inputBytes).pageableMemcpy(pageableMemcpy).deviceSync(deviceSyncPerIteration)
                .dataloaderGapNs(dataloaderGapNs).stepJitterPct(stepJitterPct).opSlowdown(opSlowdown)
                .stepMarkers(stepMarkers).dataLoaderRange(dataLoaderRange).streamSync(streamSyncPerIteration)
                .endOrderedNvtx(endOrderedNvtx);
    }

    public static final class Builder {
        private NsysSchema schema = NsysSchema.NSYS_2022_1;
        private GpuModel gpu = GpuModel.RTX_2070_SUPER;
        private int gpus = 1;
        private int installedGpus = 0;
        private long seed = 1;
        private int iterations = 10;
        private int opsPerIteration = 12;
        private int kernelsPerOp = 1;
        private List<OpTemplate> ops = OpTemplate.RESNET_LIKE;
        private boolean emitNvtx = true;
        private boolean dlprofMarkers;
        private Map<String, Object> modelConfig;
        private boolean tensorCores;
        private boolean backward;
        private long inputBytes;
        private boolean pageableMemcpy;
        private boolean deviceSync;
        private long dataloaderGapNs;
        private double stepJitterPct;
        private Map<String, Double> opSlowdown = Map.of();
        private StepMarkers stepMarkers = StepMarkers.NONE;
        private boolean dataLoaderRange;
        private boolean streamSync;
        private boolean endOrderedNvtx;

        public Builder schema(NsysSchema v) { schema = v; return this; }
        public Builder gpu(GpuModel v) { gpu = v; return this; }
        public Builder gpus(int v) { gpus = v; return this; }
        /** GPUs listed in TARGET_INFO_GPU (default: {@code gpus}); the extra ones stay unused. */
        public Builder installedGpus(int v) { installedGpus = v; return this; }
        public Builder seed(long v) { seed = v; return this; }
        public Builder iterations(int v) { iterations = v; return this; }
        public Builder opsPerIteration(int v) { opsPerIteration = v; return this; }
        public Builder kernelsPerOp(int v) { kernelsPerOp = v; return this; }
        public Builder ops(List<OpTemplate> v) { ops = v; return this; }
        public Builder emitNvtx(boolean v) { emitNvtx = v; return this; }
        public Builder dlprofMarkers(boolean v) { dlprofMarkers = v; return this; }
        public Builder modelConfig(Map<String, Object> v) { modelConfig = v; return this; }
        public Builder tensorCores(boolean v) { tensorCores = v; return this; }
        public Builder backward(boolean v) { backward = v; return this; }
        public Builder inputBytes(long v) { inputBytes = v; return this; }
        public Builder pageableMemcpy(boolean v) { pageableMemcpy = v; return this; }
        public Builder deviceSync(boolean v) { deviceSync = v; return this; }
        public Builder dataloaderGapNs(long v) { dataloaderGapNs = v; return this; }
        public Builder stepJitterPct(double v) { stepJitterPct = v; return this; }
        public Builder opSlowdown(Map<String, Double> v) { opSlowdown = v; return this; }
        public Builder stepMarkers(StepMarkers v) { stepMarkers = v; return this; }
        public Builder dataLoaderRange(boolean v) { dataLoaderRange = v; return this; }
        public Builder streamSync(boolean v) { streamSync = v; return this; }
        public Builder endOrderedNvtx(boolean v) { endOrderedNvtx = v; return this; }

        public WorkloadSpec build() {
            return new WorkloadSpec(schema, gpu, gpus, Math.max(gpus, installedGpus), seed, iterations, opsPerIteration,
                    kernelsPerOp, ops, emitNvtx, dlprofMarkers, modelConfig, tensorCores, backward, inputBytes,
                    pageableMemcpy, deviceSync, dataloaderGapNs, stepJitterPct, opSlowdown,
                    stepMarkers, dataLoaderRange, streamSync, endOrderedNvtx);
        }
    }
}
