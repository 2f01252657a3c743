package dlproflint.extract.kineto;

import dlproflint.extract.common.StepSweep;
import dlproflint.facts.CollectiveKind;
import dlproflint.facts.Iteration;
import dlproflint.facts.ProfileFacts;

import java.util.List;

/**
 * Feeds a Kineto trace's GPU operations, in start order, to the {@link StepSweep} that measures each step's
 * compute, communication and idle time. A communication kernel's collective is what its own metadata names
 * ({@code Collective name}, 2024+ traces), else what the framework call it was launched in names
 * ({@code nccl:all_to_all} around the launch: NCCL runs all-to-all as {@code SendRecv} kernels), else what
 * its name says. Collectives that ran on the host ({@link HostCollectives}) join the same sweep.
 */
final class KinetoSteps {
    private final KinetoAggregator a;
    private int[] kindByName;
    private long[] callStart;
    private long[] callEnd;
    private int[] callKind;

    KinetoSteps(KinetoAggregator aggregator) {
        this.a = aggregator;
    }

    void sweep(List<Iteration> iterations, int[] numbers, ProfileFacts.Builder out) {
        int n = iterations.size();
        long[] starts = new long[n];
        long[] ends = new long[n];
        for (int i = 0; i < n; i++) {
            starts[i] = iterations.get(i).startNs();
            ends[i] = iterations.get(i).endNs();
        }
        for (int i = 1; i < n; i++) {
            if (starts[i] < starts[i - 1]) return; // steps numbered against time: nothing per step can be trusted
        }
        StepSweep sweep = new StepSweep(numbers, starts, ends);
        KinetoAggregator.GpuColumns k = a.kernels;
        KinetoAggregator.GpuColumns m = a.memcpys;
        KinetoAggregator.GpuColumns s = a.memsets;
        HostCollectives.Spans h = a.hostCollectives.measured(() -> a.distributedSignals.ncclCalls() > 0 || anyCommKernel());
        int gpuOps = k.size() + m.size() + s.size();
        int total = gpuOps + h.size();
        long[] keys = new long[total];
        long[] idx = new long[total];
        int i = 0;
        for (KinetoAggregator.GpuColumns c : List.of(k, m, s)) {
            for (int j = 0; j < c.size(); j++, i++) {
                keys[i] = c.start.get(j);
                idx[i] = i;
            }
        }
        for (int j = 0; j < h.size(); j++, i++) {
            keys[i] = h.start.get(j);
            idx[i] = i;
        }
        ParallelSort.sort(keys, idx);
        kindByName = new int[a.names.size()];
        java.util.Arrays.fill(kindByName, Integer.MIN_VALUE);
        for (int x = 0; x < total; x++) {
            int g = (int) idx[x];
            if (g >= gpuOps) {
                int j = g - gpuOps;
                sweep.hostCollective(h.start.get(j), h.end.get(j), h.kind.get(j), h.bytes.get(j));
            } else if (g < k.size()) {
                long st = k.start.get(g);
                sweep.gpu(st, st + k.dur.get(g), kernelClass(g), k.bytes.get(g) > 0 ? k.bytes.get(g) : -1);
            } else {
                KinetoAggregator.GpuColumns c = g < k.size() + m.size() ? m : s;
                int j = c == m ? g - k.size() : g - k.size() - m.size();
                long st = c.start.get(j);
                sweep.gpu(st, st + c.dur.get(j), StepSweep.MEMORY, -1);
            }
        }
        for (int d = 0; d < a.dataLoaderStart.size(); d++) sweep.dataLoader(a.dataLoaderStart.get(d), a.dataLoaderEnd.get(d));
        sweep.finish(out);
    }

    /** Whether any kernel of the trace is a communication kernel. */
    private boolean anyCommKernel() {
        KinetoAggregator.GpuColumns k = a.kernels;
        for (int j = 0; j < k.size(); j++) {
            if (k.collective.get(j) >= 0 || a.collectiveKernel(k.nameIndex.get(j))) return true;
        }
        return false;
    }

    /** {@link StepSweep#COMPUTE}, or the kernel's collective kind. */
    private int kernelClass(int kernel) {
        int own = a.kernels.collective.get(kernel);
        if (own >= 0) return own;
        int name = a.kernels.nameIndex.get(kernel);
        if (kindByName[name] == Integer.MIN_VALUE) {
            CollectiveKind kind = CollectiveKind.ofKernel(a.names.get(name));
            kindByName[name] = kind == null ? StepSweep.COMPUTE : kind.ordinal();
        }
        int byName = kindByName[name];
        if (byName == StepSweep.COMPUTE) return byName;
        int call = enclosingCall(a.kernels.correlation.get(kernel));
        return call >= 0 ? call : byName;
    }

    /** The collective of the innermost framework call that was open when the kernel was launched, or -1. */
    private int enclosingCall(long correlation) {
        if (a.commCallStart.size() == 0 || correlation == TraceEvent.NONE) return -1;
        if (callStart == null) {
            int n = a.commCallStart.size();
            long[] order = new long[n];
            long[] byStart = new long[n];
            for (int i = 0; i < n; i++) {
                byStart[i] = a.commCallStart.get(i);
                order[i] = i;
            }
            ParallelSort.sort(byStart, order);
            callStart = byStart;
            callEnd = new long[n];
            callKind = new int[n];
            for (int i = 0; i < n; i++) {
                callEnd[i] = a.commCallEnd.get((int) order[i]);
                callKind[i] = a.commCallKind.get((int) order[i]);
            }
        }
        // the runtime call that launched the kernel (LaunchCalls, shared with the PyTorch signals)
        int launch = a.launchCalls.find(correlation);
        if (launch < 0) return -1;
        long t = a.launchCalls.start(launch);
        int i = java.util.Arrays.binarySearch(callStart, t);
        if (i < 0) i = -i - 2;
        while (i + 1 < callStart.length && callStart[i + 1] == t) i++;
        // the latest-starting call that still covers t is the innermost; calls are short, so few are passed
        for (; i >= 0; i--) {
            if (callEnd[i] >= t) return callKind[i];
        }
        return -1;
    }
}
