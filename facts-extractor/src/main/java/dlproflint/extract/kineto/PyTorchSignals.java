package dlproflint.extract.kineto;

import dlproflint.extract.common.HostReplay;
import dlproflint.extract.common.StreamStats;
import dlproflint.findings.Units;
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
     * @return the replay of the aggregated steps, or null without one (no steps, no launch links)
     */
    static HostReplay.Result add(KinetoAggregator a, List<Iteration> iterations, long[] window, boolean hasSteps,
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
        dlproflint.facts.InputCopyStat copies = InputCopies.of(streams, a.dataLoaderEnd.sorted(), a.names);
        dlproflint.facts.HostSyncStat syncs = a.hostSyncs.fact(new long[] {from, to}, steps, busy(a), a.names,
                a.launchCalls.size() > 0 || !a.apiStats.isEmpty());
        HostReplay.Result replay = steps.length > 0 ? replay(a, steps, out) : null;
        if (replay != null) {
            if (copies != null && copies.pageableCopies() > 0) copies = copies.withSaving(Math.round(replay.copySavingNs() * steps.length), replay.stepNs(),
                    Math.round(replay.releaseNs() * steps.length));
            if (syncs != null) syncs = syncs.withSaving(Math.round(replay.syncSavingNs() * steps.length), replay.stepNs());
        }
        out.inputCopies(copies);
        out.hostSyncs(syncs);
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
        if (a.memoryEvents.isEmpty() && a.kernels.size() > 0 && a.legacyEvents == 0) {
            // the memory rules stay silent without the allocator's records: say that they could not judge, rather than
            // let silence read as "memory is fine" (a legacy trace has its own warning, which names memory)
            out.warning("no-memory-events", "the trace has no [memory] events (recorded without profile_memory=True): how much"
                    + " GPU memory the tensors took is not known, so pytorch/memory-near-capacity and pytorch/memory-headroom"
                    + " are not judged");
        }
        TreeSet<Integer> devices = new TreeSet<>();
        for (int k = 0; k < a.kernels.size(); k++) devices.add(a.kernels.device.get(k));
        out.distributed(a.distributedSignals.fact(a.distributed, devices.size()));
        return replay;
    }

    /**
     * The measurement layer's replay of the aggregated steps ({@link HostReplay}) without the profiler's own host cost
     * ({@link dlproflint.extract.common.CaptureOverhead}), and a warning that states the correction; null without
     * launch links.
     */
    private static HostReplay.Result replay(KinetoAggregator a, long[][] steps, ProfileFacts.Builder out) {
        long from = steps[0][0];
        long to = steps[steps.length - 1][1];
        GpuStreams launched = new GpuStreams(a.kernels, a.memcpys, a.memsets, a.launchCalls, from, to);
        double perEvent = a.hostEvents.perEventNs();
        HostReplay.Result r = KinetoReplay.of(a, launched, from, to, steps.length, perEvent);
        if (r == null) {
            if (launched.size() > 0) {
                out.warning("profiler-overhead", "the capture's own host cost was not taken out and host syncs are priced on"
                        + " the GPU idle they leave: " + KinetoReplay.notReplayed(a, launched));
            }
            return null;
        }
        double profiled = (to - from) / (double) steps.length;
        if (perEvent < 0) {
            out.warning("profiler-overhead", "the profiler's own host cost could not be estimated ("
                    + (a.opList.isEmpty() ? "the trace has no CPU ops to measure it on"
                    : "too few ops that only launch a kernel, or more than " + Units.count(HostEvents.MAX_EVENTS) + " host events")
                    + "): host-bound figures are those of the profiled loop, which runs slower than the real one");
        } else {
            long events = a.hostEvents.count(from, to);
            out.profilerOverhead(new dlproflint.facts.ProfilerOverhead(perEvent, events / (double) steps.length,
                    r.overheadNs(), profiled, r.stepNs(), settings(a)));
            out.warning("profiler-overhead", "the capture slowed the host: about " + Units.duration(perEvent)
                    + " per recorded event (" + settings(a) + "), " + Units.duration(r.overheadNs()) + " of the "
                    + Units.duration(profiled) + " host step; replayed without it, a step takes about "
                    + Units.duration(r.stepNs()) + (r.stepNs() < profiled
                            ? " (" + Units.pct(100 * (1 - r.stepNs() / profiled)) + " less). "
                            // the replay is longer where the GPU, behind the host, sets the pace
                            : " (no shorter: the GPU, not the host, sets the pace). ")
                    + "Host-sync and pageable-copy savings are priced on that replay");
        }
        return r;
    }

    /** The capture options the trace records, for the overhead warning. */
    private static String settings(KinetoAggregator a) {
        List<String> on = new java.util.ArrayList<>();
        for (String k : List.of("record_shapes", "with_stack", "profile_memory", "with_flops", "with_modules")) {
            String v = a.topLevel.get(k);
            if (v != null && !"0".equals(v) && !"false".equalsIgnoreCase(v)) on.add(k);
        }
        if (!on.contains("profile_memory") && !a.memoryEvents.isEmpty()) on.add("profile_memory");
        return on.isEmpty() ? "no shapes, stacks or memory recorded" : String.join(", ", on) + " on";
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
