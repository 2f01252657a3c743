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

    private final long[] bucketCount = new long[KernelDurations.BOUNDS_NS.length + 1];
    private final long[] bucketNs = new long[bucketCount.length];
    private final long[] bucketGap = new long[bucketCount.length];
    private long kernels;
    private long kernelNs;

    private long launches;
    private long launchKernelNs;
    private long callNs;
    private long shorter;
    private long callOutliers;
    private long delayOutliers;
    private long emptyQueue;
    private long queueSum;
    private final LogHistogram delays = new LogHistogram();

    /** per device: the breakdown of its stream with the most kernel time so far, and that time */
    private final Map<Integer, IdleBreakdown> busiest = new TreeMap<>();
    private final Map<Integer, Long> busiestKernelNs = new TreeMap<>();

    /** the stream fed by {@link #stream} and {@link #op(boolean, long, long, long, long)} */
    private Lane current;
    /** the streams fed by {@link #op(int, long, long, boolean, long, long, long, long)}, closed in key order */
    private final Map<LaneKey, Lane> lanes = new HashMap<>();
    private LaneKey lastKey;
    private Lane lastLane;

    /** A stream's own state: what lies between its operations, and the launches still queued on it. */
    private static final class Lane {
        final int device;
        final long stream;
        long first = Long.MIN_VALUE;
        long lastEnd;
        long host;
        long kernelWait;
        long other;
        long gaps;
        long hostGaps;
        long launchHost;
        long streamKernelNs;
        int pendingBucket = -1;
        long pendingEnd;
        final LongQueue notStarted = new LongQueue();

        Lane(int device, long stream) {
            this.device = device;
            this.stream = stream;
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
        op(current, kernel, start, end, callStart, callEnd);
    }

    /**
     * One operation of stream {@code streamId} of process {@code pid} on {@code deviceId}, for a reader that meets
     * the streams interleaved: each stream's operations in the order they ran (launch order is that order, a
     * stream being a queue), the streams in any order. Their breakdowns are compared in (device, process,
     * stream) order, as if each had been fed whole in that order.
     */
    public void op(int deviceId, long pid, long streamId, boolean kernel, long start, long end, long callStart,
                   long callEnd) {
        Lane lane = lastLane;
        if (lastKey == null || lastKey.device != deviceId || lastKey.pid != pid || lastKey.stream != streamId) {
            LaneKey key = new LaneKey(deviceId, pid, streamId);
            lane = lanes.computeIfAbsent(key, k -> new Lane(deviceId, streamId));
            lastKey = key;
            lastLane = lane;
        }
        op(lane, kernel, start, end, callStart, callEnd);
    }

    private void op(Lane l, boolean kernel, long start, long end, long callStart, long callEnd) {
        if (end < start) end = start;
        boolean linked = callStart != NO_CALL;
        if (l.pendingBucket >= 0) {
            bucketGap[l.pendingBucket] += Math.max(0, Math.min(KERNEL_WAIT_NS, start - l.pendingEnd));
            l.pendingBucket = -1;
        }
        if (l.first == Long.MIN_VALUE) {
            l.first = start;
            l.lastEnd = end;
        } else {
            long gap = start - l.lastEnd;
            if (gap > 0) {
                l.gaps++;
                // host wait: the operation was launched only after the previous one had finished
                if (linked && callStart > l.lastEnd) {
                    l.host += gap;
                    l.hostGaps++;
                    if (gap < RUNTIME_CUTOFF_NS) l.launchHost += gap;
                } else if (gap < KERNEL_WAIT_NS) {
                    l.kernelWait += gap;
                } else {
                    l.other += gap;
                }
            }
            l.lastEnd = Math.max(l.lastEnd, end);
        }
        if (kernel) {
            long d = end - start;
            int b = bucket(d);
            bucketCount[b]++;
            bucketNs[b] += d;
            kernels++;
            kernelNs += d;
            l.streamKernelNs += d;
            l.pendingBucket = b;
            l.pendingEnd = end;
        }
        if (!linked) return;
        LongQueue notStarted = l.notStarted;
        while (!notStarted.isEmpty() && notStarted.peek() <= callStart) notStarted.poll();
        if (kernel) {
            long d = end - start;
            long call = Math.max(0, callEnd - callStart);
            launches++;
            launchKernelNs += d;
            callNs += call;
            if (d < call && call <= RUNTIME_CUTOFF_NS) shorter++;
            if (call > RUNTIME_CUTOFF_NS) callOutliers++;
            long delay = Math.max(0, start - callEnd);
            if (delay > DELAY_CUTOFF_NS) delayOutliers++;
            delays.add(delay);
            queueSum += notStarted.size();
            if (notStarted.isEmpty()) emptyQueue++;
        }
        notStarted.add(start);
    }

    private static int bucket(long d) {
        long[] bounds = KernelDurations.BOUNDS_NS;
        int b = 0;
        while (b < bounds.length && d >= bounds[b]) b++;
        return b;
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

    private void close(Lane l) {
        if (l.first == Long.MIN_VALUE || l.streamKernelNs == 0) return;
        Long best = busiestKernelNs.get(l.device);
        if (best != null && best >= l.streamKernelNs) return;
        long span = l.lastEnd - l.first;
        long idle = l.host + l.kernelWait + l.other;
        busiestKernelNs.put(l.device, l.streamKernelNs);
        busiest.put(l.device, new IdleBreakdown(l.device, l.stream, span, span - idle, l.host, l.kernelWait, l.other,
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
        if (kernels == 0) return null;
        List<DurationBucket> buckets = new ArrayList<>();
        long[] bounds = KernelDurations.BOUNDS_NS;
        for (int b = 0; b < bucketCount.length; b++) {
            buckets.add(new DurationBucket(b < bounds.length ? bounds[b] : Long.MAX_VALUE, bucketCount[b], bucketNs[b], bucketGap[b]));
        }
        return new KernelDurations(kernels, kernelNs, buckets);
    }

    /** The launch statistics, or null when no kernel was linked to its launch call. */
    public LaunchStat launches() {
        closeStreams();
        if (launches == 0) return null;
        return new LaunchStat(launches, launchKernelNs, callNs, shorter, callOutliers, delayOutliers, delays.median(),
                emptyQueue, (double) queueSum / launches);
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
