package dlproflint.extract.kineto;

import dlproflint.extract.common.StreamStats;
import dlproflint.extract.common.SyncIdle;
import dlproflint.facts.CollectiveStat;
import dlproflint.facts.Iteration;
import dlproflint.facts.MemoryPeak;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.StatAccumulator;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The facts the {@code pytorch} pack reads, from a finished {@link KinetoAggregator} and the iterations already
 * decided: GPU streams and launch links over the aggregated steps (idle breakdown, kernel durations, launch
 * statistics, step signatures, communication exposure, occupancy, batch copies), host sync points, memory peaks
 * and the distributed setup. Each is left out when the trace does not carry its signal.
 */
final class PyTorchSignals {
    private PyTorchSignals() {
    }

    /**
     * @param window     the aggregated range on the host, [from, to]
     * @param hasSteps   the iterations are steps the profile marks or implies, not the whole profile as one
     * @param collective the counts-only collective fact, or null
     */
    static void add(KinetoAggregator a, List<Iteration> iterations, long[] window, boolean hasSteps,
                    CollectiveStat collective, ProfileFacts.Builder out) {
        long from = window[0];
        long to = window[1] == Long.MAX_VALUE ? Long.MAX_VALUE : window[1] + 1;
        long[][] steps = hasSteps
                ? iterations.stream().filter(Iteration::aggregated).map(it -> new long[] {it.startNs(), it.endNs()})
                        .sorted((x, y) -> Long.compare(x[0], y[0])).toArray(long[][]::new)
                : new long[0][];
        GpuStreams streams = new GpuStreams(a.kernels, a.memcpys, a.memsets, a.launchCalls, from, to);

        StreamStats stats = streamStats(streams);
        stats.idleBreakdowns().forEach(out::idleBreakdown);
        out.kernelDurations(stats.durations());
        out.launches(stats.launches());
        StatAccumulator graphs = a.apiStats.get("cudaGraphLaunch");
        out.stepSequence(StepSignatures.of(streams, steps, graphs == null ? 0 : graphs.count()));
        out.occupancy(OccupancyStats.of(streams, a));
        out.inputCopies(InputCopies.of(streams, a.dataLoaderEnd.sorted(), a.names));
        out.hostSyncs(a.hostSyncs.fact(new long[] {from, to}, steps, busy(a), a.names));
        if (collective != null) {
            long[] exposure = CommExposure.of(streams, a);
            long span = to == Long.MAX_VALUE ? 0 : to - 1 - from;
            out.collectives(new CollectiveStat(collective.kernels(), collective.gpuTimeNs(),
                    collective.shareOfKernelTimePct(), exposure[0], exposure[1], exposure[0] > 0 ? span : 0));
        }
        for (Map.Entry<Integer, Long> m : a.memoryEvents.entrySet()) {
            int d = m.getKey();
            out.memoryPeak(new MemoryPeak(d, m.getValue(), a.peakAllocated.getOrDefault(d, -1L),
                    a.peakReserved.getOrDefault(d, -1L)));
        }
        TreeSet<Integer> devices = new TreeSet<>();
        for (int k = 0; k < a.kernels.size(); k++) devices.add(a.kernels.device.get(k));
        out.distributed(a.distributedSignals.fact(a.distributed, devices.size()));
    }

    /** Each stream's operations, in start order, through the shared stream statistics. */
    private static StreamStats streamStats(GpuStreams s) {
        StreamStats stats = new StreamStats();
        for (int g = 0; g < s.groups(); g++) {
            stats.stream(s.groupDevice[g], s.groupStream[g]);
            for (int i = s.groupStart[g]; i < s.groupStart[g + 1]; i++) {
                boolean linked = s.linked(i);
                stats.op(s.table(i) == GpuStreams.KERNEL, s.start(i), s.end(i),
                        linked ? s.callStart(i) : StreamStats.NO_CALL, linked ? s.callEnd(i) : StreamStats.NO_CALL);
            }
        }
        return stats;
    }

    /** The operations of all GPUs together in start order, or null without GPU work. */
    private static SyncIdle.Intervals busy(KinetoAggregator a) {
        int n = a.kernels.size() + a.memcpys.size() + a.memsets.size();
        if (n == 0) return null;
        long[] s = new long[n];
        long[] e = new long[n];
        int i = 0;
        for (KinetoAggregator.GpuColumns c : List.of(a.kernels, a.memcpys, a.memsets)) {
            for (int k = 0; k < c.size(); k++, i++) {
                s[i] = c.start.get(k);
                e[i] = c.start.get(k) + c.dur.get(k);
            }
        }
        ParallelSort.sort(s, e);
        return SyncIdle.Intervals.of(s, e);
    }
}
