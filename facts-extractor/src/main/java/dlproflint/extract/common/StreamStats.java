package dlproflint.extract.common;

import dlproflint.facts.DurationBucket;
import dlproflint.facts.IdleBreakdown;
import dlproflint.facts.KernelDurations;
import dlproflint.facts.LaunchStat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Statistics of the GPU streams of the analysed range, fed one stream at a time with its operations (kernels,
 * copies, memsets) in start order, each with the host call that launched it when the profile links them: HTA's idle
 * time breakdown per stream, its kernel launch statistics and queue length, and the kernel duration histogram with
 * the launch gap after each kernel. State is per stream and bounded (the ops still queued at a launch: at most the
 * stream's launch queue), so a reader can stream a whole profile through it: one stream at a time
 * ({@link #stream}, then its operations), or the streams interleaved, each operation naming its stream.
 *
 * <p>A stream runs its operations in launch order, so along a stream the launch calls come in order too; the
 * queue a launch finds is the number of earlier operations of the stream that had not started when its call began
 * (HTA: +1 at each launch, −1 when the GPU starts the operation).
 */
public final class StreamStats {
    /** No launch call is linked to the operation. */
    public static final long NO_CALL = Long.MIN_VALUE;
    /** HTA's {@code consecutive_kernel_delay}: a shorter gap between queued operations is launch latency. */
    public static final long KERNEL_WAIT_NS = 30_000;
    /** HTA's {@code runtime_cutoff}: a longer launch call is an outlier, a shorter host wait a launch gap. */
    public static final long RUNTIME_CUTOFF_NS = 50_000;
    /** HTA's {@code launch_delay_cutoff}. */
    public static final long DELAY_CUTOFF_NS = 100_000;

    /** per segment: the counters of the operations of that segment */
    private final Tally[] tallies;
    /** the segments whose operations count ({@link #keep}); all of them by default */
    private boolean[] kept;

    /** per device: the breakdown of its stream with the most kernel time so far, and that time */
    private final Map<Integer, IdleBreakdown> busiest = new TreeMap<>();
    private final Map<Integer, Long> busiestKernelNs = new TreeMap<>();

    /** the stream fed by {@link #stream} and {@link #op(boolean, long, long, long, long)} */
    private Lane current;
    /** the streams fed by {@link #op(int, long, long, boolean, long, long, long, long)}, closed in key order */
    private final Map<LaneKey, Lane> lanes = new HashMap<>();
    private LaneKey lastKey;
    private Lane lastLane;

    /** Statistics of one segment of the operations. */
    public StreamStats() {
        this(1);
    }

    /**
     * Statistics whose operations fall into {@code segments} parts (a reader's steps not yet known to be aggregated
     * or left out): each operation names its segment, {@link #keep} says which count. A stream's gaps are measured
     * between its consecutive operations whatever their segments, and count for the later one's.
     */
    public StreamStats(int segments) {
        tallies = new Tally[segments];
        for (int i = 0; i < segments; i++) tallies[i] = new Tally();
        kept = new boolean[segments];
        java.util.Arrays.fill(kept, true);
    }

    /** Counts only the operations of the segments marked {@code true}; call before reading any result. */
    public void keep(boolean[] segments) {
        kept = segments.clone();
    }

    /** The counters of a set of operations (kernel durations, launches). */
    private static final class Tally {
        final long[] bucketCount = new long[KernelDurations.BOUNDS_NS.length + 1];
        final long[] bucketNs = new long[bucketCount.length];
        final long[] bucketGap = new long[bucketCount.length];
        long kernels;
        long kernelNs;
        long launches;
        long launchKernelNs;
        long callNs;
        long shorter;
        long callOutliers;
        long delayOutliers;
        long emptyQueue;
        long queueSum;
        final LogHistogram delays = new LogHistogram();

        void add(Tally o) {
            for (int b = 0; b < bucketCount.length; b++) {
                bucketCount[b] += o.bucketCount[b];
                bucketNs[b] += o.bucketNs[b];
                bucketGap[b] += o.bucketGap[b];
            }
            kernels += o.kernels;
            kernelNs += o.kernelNs;
            launches += o.launches;
            launchKernelNs += o.launchKernelNs;
            callNs += o.callNs;
            shorter += o.shorter;
            callOutliers += o.callOutliers;
            delayOutliers += o.delayOutliers;
            emptyQueue += o.emptyQueue;
            queueSum += o.queueSum;
            delays.add(o.delays);
        }
    }

    /** What lies between one stream's operations of one segment. */
    private static final class LaneTally {
        long first = Long.MIN_VALUE;
        long lastEnd;
        long host;
        long kernelWait;
        long other;
        long gaps;
        long hostGaps;
        long launchHost;
        long streamKernelNs;

        void add(LaneTally o) {
            if (o.first == Long.MIN_VALUE) return;
            first = first == Long.MIN_VALUE ? o.first : Math.min(first, o.first);
            lastEnd = Math.max(lastEnd, o.lastEnd);
            host += o.host;
            kernelWait += o.kernelWait;
            other += o.other;
            gaps += o.gaps;
            hostGaps += o.hostGaps;
            launchHost += o.launchHost;
            streamKernelNs += o.streamKernelNs;
        }
    }

    /** A stream's own state: the end of its work so far, the launches still queued on it, and its segments' tallies. */
    private final class Lane {
        final int device;
        final long stream;
        boolean started;
        long lastEnd;
        int pendingBucket = -1;
        int pendingSegment;
        long pendingEnd;
        final LongQueue notStarted = new LongQueue();
        final LaneTally[] bySegment = new LaneTally[tallies.length];

        Lane(int device, long stream) {
            this.device = device;
            this.stream = stream;
        }

        LaneTally tally(int segment) {
            LaneTally t = bySegment[segment];
            if (t == null) bySegment[segment] = t = new LaneTally();
            return t;
        }
    }

    private record LaneKey(int device, long pid, long stream) implements Comparable<LaneKey> {
        @Override
        public int compareTo(LaneKey o) {
            int c = Integer.compare(device, o.device);
            if (c == 0) c = Long.compare(pid, o.pid);
            return c != 0 ? c : Long.compare(stream, o.stream);
        }
    }

    /** Starts the next stream; its operations follow in start order. */
    public void stream(int deviceId, long streamId) {
        closeCurrent();
        current = new Lane(deviceId, streamId);
    }

    /**
     * One operation of the current stream.
     *
     * @param callStart start of the launching call, or {@link #NO_CALL}
     */
    public void op(boolean kernel, long start, long end, long callStart, long callEnd) {
        if (current == null) throw new IllegalStateException("op() before stream()");
        op(current, 0, kernel, start, end, callStart, callEnd);
    }

    /**
     * One operation of stream {@code streamId} of process {@code pid} on {@code deviceId}, for a reader that meets
     * the streams interleaved: each stream's operations in the order they ran (launch order is that order, a
     * stream being a queue), the streams in any order. Their breakdowns are compared in (device, process,
     * stream) order, as if each had been fed whole in that order.
     */
    public void op(int deviceId, long pid, long streamId, boolean kernel, long start, long end, long callStart,
                   long callEnd) {
        op(0, deviceId, pid, streamId, kernel, start, end, callStart, callEnd);
    }

    /** {@link #op(int, long, long, boolean, long, long, long, long)} of an operation of segment {@code segment}. */
    public void op(int segment, int deviceId, long pid, long streamId, boolean kernel, long start, long end,
                   long callStart, long callEnd) {
        Lane lane = lastLane;
        if (lastKey == null || lastKey.device != deviceId || lastKey.pid != pid || lastKey.stream != streamId) {
            LaneKey key = new LaneKey(deviceId, pid, streamId);
            lane = lanes.computeIfAbsent(key, k -> new Lane(deviceId, streamId));
            lastKey = key;
            lastLane = lane;
        }
        op(lane, segment, kernel, start, end, callStart, callEnd);
    }

    private void op(Lane l, int segment, boolean kernel, long start, long end, long callStart, long callEnd) {
        if (end < start) end = start;
        boolean linked = callStart != NO_CALL;
        Tally tally = tallies[segment];
        LaneTally lt = l.tally(segment);
        if (l.pendingBucket >= 0) {
            tallies[l.pendingSegment].bucketGap[l.pendingBucket] += Math.max(0, Math.min(KERNEL_WAIT_NS, start - l.pendingEnd));
            l.pendingBucket = -1;
        }
        if (!l.started) {
            l.started = true;
            l.lastEnd = end;
        } else {
            long gap = start - l.lastEnd;
            if (gap > 0) {
                lt.gaps++;
                // host wait: the operation was launched only after the previous one had finished
                if (linked && callStart > l.lastEnd) {
                    lt.host += gap;
                    lt.hostGaps++;
                    if (gap < RUNTIME_CUTOFF_NS) lt.launchHost += gap;
                } else if (gap < KERNEL_WAIT_NS) {
                    lt.kernelWait += gap;
                } else {
                    lt.other += gap;
                }
            }
            l.lastEnd = Math.max(l.lastEnd, end);
        }
        if (lt.first == Long.MIN_VALUE) lt.first = start;
        lt.lastEnd = Math.max(lt.lastEnd, end);
        if (kernel) {
            long d = end - start;
            int b = bucket(d);
            tally.bucketCount[b]++;
            tally.bucketNs[b] += d;
            tally.kernels++;
            tally.kernelNs += d;
            lt.streamKernelNs += d;
            l.pendingBucket = b;
            l.pendingSegment = segment;
            l.pendingEnd = end;
        }
        if (!linked) return;
        LongQueue notStarted = l.notStarted;
        while (!notStarted.isEmpty() && notStarted.peek() <= callStart) notStarted.poll();
        if (kernel) {
            long d = end - start;
            long call = Math.max(0, callEnd - callStart);
            tally.launches++;
            tally.launchKernelNs += d;
            tally.callNs += call;
            if (d < call && call <= RUNTIME_CUTOFF_NS) tally.shorter++;
            if (call > RUNTIME_CUTOFF_NS) tally.callOutliers++;
            long delay = Math.max(0, start - callEnd);
            if (delay > DELAY_CUTOFF_NS) tally.delayOutliers++;
            tally.delays.add(delay);
            tally.queueSum += notStarted.size();
            if (notStarted.isEmpty()) tally.emptyQueue++;
        }
        notStarted.add(start);
    }

    private static int bucket(long d) {
        long[] bounds = KernelDurations.BOUNDS_NS;
        int b = 0;
        while (b < bounds.length && d >= bounds[b]) b++;
        return b;
    }

    /** The kept segments' counters together. */
    private Tally total() {
        Tally t = new Tally();
        for (int i = 0; i < tallies.length; i++) if (kept[i]) t.add(tallies[i]);
        return t;
    }

    /** Closes the current stream and the interleaved ones (in key order): their breakdowns compete per device. */
    private void closeStreams() {
        closeCurrent();
        List<LaneKey> keys = new ArrayList<>(lanes.keySet());
        java.util.Collections.sort(keys);
        for (LaneKey k : keys) close(lanes.get(k));
        lanes.clear();
        lastKey = null;
        lastLane = null;
    }

    private void closeCurrent() {
        if (current != null) close(current);
        current = null;
    }

    private void close(Lane lane) {
        LaneTally l = new LaneTally();
        for (int i = 0; i < lane.bySegment.length; i++) if (kept[i] && lane.bySegment[i] != null) l.add(lane.bySegment[i]);
        if (l.first == Long.MIN_VALUE || l.streamKernelNs == 0) return;
        Long best = busiestKernelNs.get(lane.device);
        if (best != null && best >= l.streamKernelNs) return;
        long span = l.lastEnd - l.first;
        long idle = l.host + l.kernelWait + l.other;
        busiestKernelNs.put(lane.device, l.streamKernelNs);
        busiest.put(lane.device, new IdleBreakdown(lane.device, lane.stream, span, span - idle, l.host, l.kernelWait, l.other,
                l.gaps, l.hostGaps, l.launchHost));
    }

    /** Per device, the breakdown of its stream with the most kernel time. */
    public List<IdleBreakdown> idleBreakdowns() {
        closeStreams();
        return new ArrayList<>(busiest.values());
    }

    /** The kernel duration histogram, or null without kernels. */
    public KernelDurations durations() {
        closeStreams();
        Tally t = total();
        if (t.kernels == 0) return null;
        List<DurationBucket> buckets = new ArrayList<>();
        long[] bounds = KernelDurations.BOUNDS_NS;
        for (int b = 0; b < t.bucketCount.length; b++) {
            buckets.add(new DurationBucket(b < bounds.length ? bounds[b] : Long.MAX_VALUE, t.bucketCount[b], t.bucketNs[b],
                    t.bucketGap[b]));
        }
        return new KernelDurations(t.kernels, t.kernelNs, buckets);
    }

    /** The launch statistics, or null when no kernel was linked to its launch call. */
    public LaunchStat launches() {
        closeStreams();
        Tally t = total();
        if (t.launches == 0) return null;
        return new LaunchStat(t.launches, t.launchKernelNs, t.callNs, t.shorter, t.callOutliers, t.delayOutliers,
                t.delays.median(), t.emptyQueue, (double) t.queueSum / t.launches);
    }

    /** A FIFO of longs in a growable ring buffer. */
    private static final class LongQueue {
        private long[] items = new long[64];
        private int head;
        private int size;

        void add(long v) {
            if (size == items.length) {
                long[] bigger = new long[items.length * 2];
                for (int i = 0; i < size; i++) bigger[i] = items[(head + i) % items.length];
                items = bigger;
                head = 0;
            }
            items[(head + size) % items.length] = v;
            size++;
        }

        long peek() {
            return items[head];
        }

        void poll() {
            head = (head + 1) % items.length;
            size--;
        }

        boolean isEmpty() {
            return size == 0;
        }

        int size() {
            return size;
        }

    }
}
