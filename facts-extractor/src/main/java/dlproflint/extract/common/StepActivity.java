package dlproflint.extract.common;

import dlproflint.facts.Iteration;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What each iteration's window held besides kernels, however the iterations were found: time in DataLoader
 * calls, time blocked in synchronisation calls, and GPU busy time per device (for the idle time). A reader
 * feeds what its format shows; what it cannot see stays unknown ({@link Iteration#UNKNOWN}).
 */
public final class StepActivity {
    private final Iterations its;
    private long[] dataLoader;
    private long[] sync;
    private final Map<Object, long[]> busyByDevice = new LinkedHashMap<>();

    public StepActivity(Iterations its) {
        this.its = its;
    }

    /** DataLoader ranges, in any order (overlaps counted once). */
    public void dataLoader(StepInstances ranges) {
        long[] s = new long[ranges.size()];
        long[] e = new long[ranges.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = ranges.start(i);
            e[i] = ranges.end(i);
        }
        Arrays.sort(s);
        Arrays.sort(e);
        dataLoader(s, e);
    }

    /** DataLoader calls as sorted start and end times. */
    public void dataLoader(long[] sortedStarts, long[] sortedEnds) {
        dataLoader = its.coveredPerIteration(sortedStarts, sortedEnds);
    }

    /** The format shows synchronisation calls (so a step without any blocked for 0 ns, not an unknown time). */
    public void syncVisible() {
        if (sync == null) sync = new long[its.count()];
    }

    /** One synchronisation call, attributed to the iteration it started in. */
    public void sync(long start, long end) {
        syncVisible();
        if (end > start) sync[its.indexOf(start)] += end - start;
    }

    /** A busy segment of one device; segments of a device must not overlap each other. */
    public void gpuBusy(Object device, long from, long to) {
        its.addOverlap(from, to, busyByDevice.computeIfAbsent(device, d -> new long[its.count()]));
    }

    /** A device's activity as sorted start and end times (overlaps counted once). */
    public void gpuBusy(Object device, long[] sortedStarts, long[] sortedEnds) {
        long[] covered = its.coveredPerIteration(sortedStarts, sortedEnds);
        long[] acc = busyByDevice.computeIfAbsent(device, d -> new long[its.count()]);
        for (int i = 0; i < acc.length; i++) acc[i] += covered[i];
    }

    /** Iteration {@code i} with the counts the reader attributed to it and the activity gathered here. */
    public Iteration iteration(int i, boolean aggregated, long kernels, long gpuNs, long tcNs, long memoryNs) {
        long duration = its.stop(i) - its.start(i);
        long idle = Iteration.UNKNOWN;
        if (!busyByDevice.isEmpty()) {
            long sum = 0;
            for (long[] busy : busyByDevice.values()) sum += Math.max(0, duration - Math.min(duration, busy[i]));
            idle = sum / busyByDevice.size();
        }
        return new Iteration(i, its.start(i), its.stop(i), aggregated, kernels, gpuNs, tcNs, memoryNs,
                dataLoader == null ? Iteration.UNKNOWN : Math.min(duration, dataLoader[i]),
                sync == null ? Iteration.UNKNOWN : sync[i], idle);
    }
}
