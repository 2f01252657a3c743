package dlproflint.extract.kineto;

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

        StreamIdle.breakdowns(streams).forEach(out::idleBreakdown);
        out.kernelDurations(StreamIdle.durations(streams));
        out.launches(LaunchQueue.of(streams));
        StatAccumulator graphs = a.apiStats.get("cudaGraphLaunch");
        out.stepSequence(StepSignatures.of(streams, steps, graphs == null ? 0 : graphs.count()));
        out.occupancy(OccupancyStats.of(streams, a.kernels, a.names));
        out.inputCopies(InputCopies.of(streams, a.dataLoaderEnd.sorted(), a.names));
        out.hostSyncs(a.hostSyncs.fact(new long[] {from, to}, steps, busy(a), a.names));
        if (collective != null) {
            long[] exposure = CommExposure.of(streams, a.names);
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

    /** Busy intervals of all GPUs together, or null without GPU work. */
    private static GpuBusy busy(KinetoAggregator a) {
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
        return new GpuBusy(s, e);
    }
}
