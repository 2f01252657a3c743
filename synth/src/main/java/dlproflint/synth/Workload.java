package dlproflint.synth;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Generates the training loop a {@link WorkloadSpec} describes into an nsys SQLite file. */
public final class Workload {
    private static final String AUTOGRAD_THREAD = "pt_autograd_0";

    /** Row counts of a generated profile. */
    public record Result(long kernels, long apiCalls, long nvtxEvents, long memcpys, long memsets, long syncs) {
    }

    private final WorkloadSpec spec;
    private final SyntheticProfile p;
    /** the iteration factors' own generator, so that jitter leaves every other row as it was */
    private final java.util.SplittableRandom jitter;
    private int seq;
    /** the current iteration's noise factor ({@link WorkloadSpec#stepJitterPct()}) */
    private double stepFactor = 1;

    private Workload(WorkloadSpec spec, SyntheticProfile p) {
        this.spec = spec;
        this.p = p;
        this.jitter = new java.util.SplittableRandom(spec.seed() ^ 0x5DEECE66DL);
    }

    public static Result generate(WorkloadSpec spec, Path file) throws IOException {
        SyntheticProfile p = SyntheticProfile.options().schema(spec.schema()).seed(spec.seed())
                .gpus(spec.gpu(), spec.installedGpus(), spec.gpus()).endOrderedNvtx(spec.endOrderedNvtx()).open(file);
        try (p) {
            new Workload(spec, p).run();
        }
        return new Result(p.count(SyntheticProfile.Count.KERNELS), p.count(SyntheticProfile.Count.API_CALLS),
                p.count(SyntheticProfile.Count.NVTX_EVENTS), p.count(SyntheticProfile.Count.MEMCPYS),
                p.count(SyntheticProfile.Count.MEMSETS), p.count(SyntheticProfile.Count.SYNCS));
    }

    private void run() {
        int[] seqs = new int[spec.gpus()];
        int firstStep = 1; // torch.profiler numbers steps from its schedule's start; any offset will do
        for (int r = 0; r < spec.gpus(); r++) {
            p.rank(r);
            // start-up: allocations and the model upload
            p.api("cudaStreamCreateWithFlags_v5000", 9_000).api("cudaMalloc_v3020", 60_000).memset(1 << 16);
            if (spec.modelConfig() != null) p.modelConfig(spec.modelConfig());
        }
        for (int it = 0; it < spec.iterations(); it++) {
            // ranks advance one iteration at a time, so rows of all processes interleave roughly in time order
            for (int r = 0; r < spec.gpus(); r++) {
                p.rank(r);
                seq = seqs[r];
                String marker = "ProfilerStep#" + (firstStep + it);
                switch (spec.stepMarkers()) {
                    case PROFILER_STEP_TEXT -> p.push(marker);
                    case PROFILER_STEP_REGISTERED -> p.pushRegistered(marker, 0);
                    default -> { }
                }
                iteration();
                if (spec.stepMarkers() != WorkloadSpec.StepMarkers.NONE) p.pop();
                seqs[r] = seq;
            }
        }
    }

    private void iteration() {
        stepFactor = spec.stepJitterPct() == 0 ? 1 : 1 + spec.stepJitterPct() / 100 * (2 * jitter.nextDouble() - 1);
        if (spec.dataLoaderRange()) p.push("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
        if (spec.dataloaderGapNs() > 0) p.cpu(Math.round(spec.dataloaderGapNs() * stepFactor));
        if (spec.dataLoaderRange()) p.pop();
        if (spec.inputBytes() > 0) {
            if (spec.emitNvtx()) p.push("aten::to, seq = " + seq++).push("aten::copy_");
            p.memcpy(SyntheticProfile.HTOD, spec.inputBytes(), spec.pageableMemcpy(), true);
            if (spec.emitNvtx()) p.pop().pop();
        }
        int total = spec.opsPerIteration();
        int forward = spec.backward() ? (total + 1) / 2 : total;
        List<OpTemplate> ops = spec.ops();
        int firstSeq = seq;
        for (int i = 0; i < forward; i++) forwardOp(ops.get(i % ops.size()), seq++, i);
        if (spec.backward()) {
            p.thread(AUTOGRAD_THREAD);
            for (int i = forward; i < total; i++) {
                int f = forward - 1 - (i - forward); // reverse order of the forward ops
                OpTemplate op = ops.get(Math.floorMod(f, ops.size()));
                backwardOp(op, firstSeq + Math.max(f, 0));
            }
            p.mainThread();
        }
        if (spec.deviceSyncPerIteration()) p.deviceSynchronize();
        if (spec.streamSyncPerIteration()) p.streamSynchronize();
    }

    /** {@code position}: index of the op in the iteration; the same call site every iteration, as in a real loop. */
    private void forwardOp(OpTemplate op, int s, int position) {
        if (spec.dlprofMarkers()) {
            p.push("{'traceMarker': ['train.py:57', '/usr/local/lib/python3.8/dist-packages/torch/nn/modules/module.py:1102', "
                    + "'model.py:" + (20 + position) + "'], 'funcStack': '/<module>/train::_call_impl/ResNetLike::forward/"
                    + op.op() + (position > 0 ? "(" + (position + 1) + ")" : "") + "'}");
            p.push("{'mod': '" + op.module() + "', 'op': '" + op.op() + "', 'args': [" + args(op) + "]}");
        }
        if (spec.emitNvtx()) {
            for (String aten : op.atenChain()) p.push(aten + ", seq = " + s);
        }
        launch(op, spec.tensorCores() ? op.tcKernels() : op.fp32Kernels());
        if (spec.emitNvtx()) for (int i = 0; i < op.atenChain().size(); i++) p.pop();
        if (spec.dlprofMarkers()) p.pop().pop();
    }

    private void backwardOp(OpTemplate op, int s) {
        if (spec.emitNvtx()) p.push(op.backwardName() + ", seq = " + s);
        launch(op, spec.tensorCores() ? op.backwardTcKernels() : op.backwardFp32Kernels());
        if (spec.emitNvtx()) p.pop();
    }

    private void launch(OpTemplate op, List<KernelSpec> kernels) {
        int n = spec.kernelsPerOp() == 0 ? kernels.size() : spec.kernelsPerOp();
        double factor = stepFactor * spec.opSlowdown().getOrDefault(op.op(), 1.0);
        for (int k = 0; k < n; k++) {
            KernelSpec ks = kernels.get(k % kernels.size());
            if (factor == 1) p.kernel(ks);
            else p.kernel(ks, Math.max(1, Math.round(p.vary(ks.meanNs()) * factor)));
        }
    }

    private String args(OpTemplate op) {
        String dtype = spec.tensorCores() ? "float16" : "float32";
        StringBuilder b = new StringBuilder();
        for (String shape : op.inputShapes().split("\\|")) {
            if (b.length() > 0) b.append(", ");
            b.append("{'name': '', 'type': 'tensor', 'shape': ").append(shape).append(", 'dtype': '").append(dtype).append("'}");
        }
        return b.toString();
    }
}
