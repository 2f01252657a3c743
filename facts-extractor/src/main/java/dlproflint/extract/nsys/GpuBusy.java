package dlproflint.extract.nsys;

import dlproflint.facts.GpuGap;
import dlproflint.facts.GpuTimeline;
import dlproflint.facts.ProfileFacts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * GPU idle gaps and busy-time bins per (process, device), {@code nsys analyze gpu_gaps / gpu_time_util}
 * semantics: GPU operations (kernels, memcpys, memsets) merged into busy periods, profiler overhead counted
 * as busy. Fed in start order by the timeline sweep; memory is bounded by the groups and the gaps kept.
 * On the way it measures how long each device stayed idle after a synchronisation call returned
 * ({@link NsysTimelinePass.SyncCalls}). A gap belongs to the step that launched the work ending it (what the GPU
 * waited for), whenever the GPU ran it.
 * The bins span each group's first to last operation, which the correlation pass measured before
 * ({@link Spans}).
 */
final class GpuBusy {
    static final long MIN_GAP_NS = 1_000_000;
    static final int MAX_GAPS_PER_DEVICE = 200;

    /** First start and last end of the GPU operations of each (process, device). */
    static final class Spans {
        private final Map<Long, long[]> byGroup = new HashMap<>();
        private long lastKey = Long.MIN_VALUE;
        private long[] last;

        void add(long pid, int device, long start, long end) {
            long[] s = span(pid, device);
            if (s == null) {
                s = new long[] {start, end};
                byGroup.put(key(pid, device), s);
                lastKey = key(pid, device);
                last = s;
                return;
            }
            s[0] = Math.min(s[0], start);
            s[1] = Math.max(s[1], end);
        }

        long[] span(long pid, int device) {
            long k = key(pid, device);
            if (k == lastKey) return last;
            long[] s = byGroup.get(k);
            if (s != null) {
                lastKey = k;
                last = s;
            }
            return s;
        }

        private static long key(long pid, int device) {
            return (pid << 32) ^ (device & 0xffffffffL);
        }
    }

    private final Spans spans;
    private final Map<Long, List<long[]>> overheadByPid;
    private final NsysTimelinePass.SyncCalls sync;
    private final Map<Long, Group> groups = new HashMap<>();
    private long lastKey = Long.MIN_VALUE;
    private Group last;

    GpuBusy(Spans spans, Map<Long, List<long[]>> overheadByPid, NsysTimelinePass.SyncCalls sync) {
        this.spans = spans;
        this.overheadByPid = overheadByPid;
        this.sync = sync;
    }

    /** One GPU operation, launched in {@code step} (-1: before the capture); start order within each (process, device). */
    void add(long pid, int device, long start, long end, int step) {
        long k = Spans.key(pid, device);
        Group g = k == lastKey ? last : groups.get(k);
        if (g == null) {
            long[] span = spans.span(pid, device);
            if (span == null) return; // not an operation the spans counted (no start or end)
            g = new Group(pid, device, span[0], span[1], overheadByPid.getOrDefault(pid, List.of()), sync.byEnd(pid));
            groups.put(k, g);
        }
        lastKey = k;
        last = g;
        g.add(start, Math.max(start, end), step);
    }

    /** The timelines and gaps, by process then device; the sync calls' idle time averaged over their devices. */
    void finish(ProfileFacts.Builder b) {
        List<Group> sorted = new ArrayList<>(groups.values());
        sorted.sort(Comparator.comparingLong((Group g) -> g.pid).thenComparingInt(g -> g.device));
        Map<Long, Integer> devices = new HashMap<>();
        for (Group g : sorted) {
            g.finish(b);
            devices.merge(g.pid, 1, Integer::sum);
        }
        sync.averageIdleOver(devices);
    }

    /** One (process, device): merges busy intervals (ops + overhead) in start order, records gaps and bins. */
    private final class Group {
        final long pid;
        final int device;
        final long first;
        final long last;
        final List<long[]> overhead;
        /** this process's synchronisation calls by end time (indexes into {@link #sync}) */
        final int[] syncByEnd;
        int nextSync;
        final long[] bins = new long[GpuTimeline.BINS];
        /** the longest gaps so far, shortest first */
        final PriorityQueue<Gap> gaps = new PriorityQueue<>(Comparator.comparingLong(Gap::durationNs));
        int nextOverhead;
        long curStart = Long.MIN_VALUE;
        long curEnd = Long.MIN_VALUE;

        Group(long pid, int device, long first, long last, List<long[]> overhead, int[] syncByEnd) {
            this.pid = pid;
            this.device = device;
            this.first = first;
            this.last = last;
            this.overhead = overhead;
            this.syncByEnd = syncByEnd;
        }

        void add(long s, long e, int step) {
            // overhead intervals that start before this op are merged first (both streams are start-sorted)
            while (nextOverhead < overhead.size() && overhead.get(nextOverhead)[0] <= s) {
                long[] o = overhead.get(nextOverhead++);
                long os = Math.max(o[0], first);
                long oe = Math.min(o[1], last);
                if (oe > os) merge(os, oe, step);
            }
            merge(s, e, step);
        }

        private void merge(long s, long e, int step) {
            if (curEnd == Long.MIN_VALUE) {
                curStart = s;
                curEnd = e;
                return;
            }
            if (s <= curEnd) {
                curEnd = Math.max(curEnd, e);
                return;
            }
            flushBusy();
            idleAfterSync(s);
            long gap = s - curEnd;
            // a gap shorter than every one kept would be dropped at once (one equal to the shortest may take its place)
            if (gap >= MIN_GAP_NS && (gaps.size() < MAX_GAPS_PER_DEVICE || gap >= gaps.peek().durationNs())) {
                gaps.add(new Gap(curEnd, gap, step));
                if (gaps.size() > MAX_GAPS_PER_DEVICE) gaps.poll();
            }
            curStart = s;
            curEnd = e;
        }

        /**
         * The device goes idle at {@code curEnd} and is busy again at {@code next}: a synchronisation call that
         * returned in between left it idle until {@code next} (the pipeline drained and waits for the host).
         * Calls that returned while the device was busy, or before its first operation, cost it nothing.
         */
        private void idleAfterSync(long next) {
            while (nextSync < syncByEnd.length && sync.end[syncByEnd[nextSync]] < next) {
                int call = syncByEnd[nextSync++];
                long end = sync.end[call];
                if (end >= curEnd) sync.idleAfterNs[call] += next - end;
            }
        }

        private void flushBusy() {
            long span = last - first;
            if (span <= 0 || curEnd <= curStart) return;
            double w = (double) span / bins.length;
            long s = curStart;
            while (s < curEnd) {
                int bin = (int) Math.min(bins.length - 1, (long) ((s - first) / w));
                long binEnd = first + (long) Math.ceil((bin + 1) * w);
                long e = Math.min(curEnd, Math.max(binEnd, s + 1));
                bins[bin] += e - s;
                s = e;
            }
        }

        void finish(ProfileFacts.Builder b) {
            if (curEnd != Long.MIN_VALUE) flushBusy();
            b.gpuTimeline(new GpuTimeline(device, pid, first, last, bins));
            List<Gap> sorted = new ArrayList<>(gaps);
            sorted.sort(Comparator.comparingLong((Gap x) -> -x.durationNs()).thenComparingLong(Gap::startNs));
            for (Gap gap : sorted) b.gpuGap(new GpuGap(device, pid, gap.startNs(), gap.durationNs(), gap.step()));
        }
    }

    /** An idle gap of a device, and the step that launched the work that ended it. */
    private record Gap(long startNs, long durationNs, int step) {
    }
}
