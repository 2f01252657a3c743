package dlproflint.extract.common;

import dlproflint.facts.DurationBucket;
import dlproflint.facts.IdleBreakdown;
import dlproflint.facts.KernelDurations;
import dlproflint.facts.LaunchStat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Statistics of the GPU streams of the analysed range, fed one stream at a time with its operations (kernels,
 * copies, memsets) in start order, each with the host call that launched it when the profile links them: HTA's idle
 * time breakdown per stream, its kernel launch statistics and queue length, and the kernel duration histogram with
 * the launch gap after each kernel. State is per stream and bounded (the ops still queued at a launch: at most the
 * stream's launch queue), so a reader can stream a whole profile through it.
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

    /** per stream: {busiest kernel time} and its breakdown */
    private final Map<Integer, IdleBreakdown> busiest = new TreeMap<>();
    private final Map<Integer, Long> busiestKernelNs = new TreeMap<>();

    private boolean open;
    private int device;
    private long stream;
    private long first;
    private long lastEnd;
    private long host;
    private long kernelWait;
    private long other;
    private long gaps;
    private long hostGaps;
    private long launchHost;
    private long streamKernelNs;
    private int pendingBucket = -1;
    private long pendingEnd;
    private final LongQueue notStarted = new LongQueue();

    /** Starts the next stream; its operations follow in start order. */
    public void stream(int deviceId, long streamId) {
        closeStream();
        open = true;
        device = deviceId;
        stream = streamId;
        first = Long.MIN_VALUE;
        host = kernelWait = other = gaps = hostGaps = launchHost = streamKernelNs = 0;
        pendingBucket = -1;
        notStarted.clear();
    }

    /**
     * One operation of the current stream.
     *
     * @param callStart start of the launching call, or {@link #NO_CALL}
     */
    public void op(boolean kernel, long start, long end, long callStart, long callEnd) {
        if (!open) throw new IllegalStateException("op() before stream()");
        if (end < start) end = start;
        boolean linked = callStart != NO_CALL;
        if (pendingBucket >= 0) {
            bucketGap[pendingBucket] += Math.max(0, Math.min(KERNEL_WAIT_NS, start - pendingEnd));
            pendingBucket = -1;
        }
        if (first == Long.MIN_VALUE) {
            first = start;
            lastEnd = end;
        } else {
            long gap = start - lastEnd;
            if (gap > 0) {
                gaps++;
                // host wait: the operation was launched only after the previous one had finished
                if (linked && callStart > lastEnd) {
                    host += gap;
                    hostGaps++;
                    if (gap < RUNTIME_CUTOFF_NS) launchHost += gap;
                } else if (gap < KERNEL_WAIT_NS) {
                    kernelWait += gap;
                } else {
                    other += gap;
                }
            }
            lastEnd = Math.max(lastEnd, end);
        }
        if (kernel) {
            long d = end - start;
            int b = bucket(d);
            bucketCount[b]++;
            bucketNs[b] += d;
            kernels++;
            kernelNs += d;
            streamKernelNs += d;
            pendingBucket = b;
            pendingEnd = end;
        }
        if (!linked) return;
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

    private void closeStream() {
        if (!open || first == Long.MIN_VALUE) {
            open = false;
            return;
        }
        open = false;
        if (streamKernelNs == 0) return;
        Long best = busiestKernelNs.get(device);
        if (best != null && best >= streamKernelNs) return;
        long span = lastEnd - first;
        long idle = host + kernelWait + other;
        busiestKernelNs.put(device, streamKernelNs);
        busiest.put(device, new IdleBreakdown(device, stream, span, span - idle, host, kernelWait, other, gaps,
                hostGaps, launchHost));
    }

    /** Per device, the breakdown of its stream with the most kernel time. */
    public List<IdleBreakdown> idleBreakdowns() {
        closeStream();
        return new ArrayList<>(busiest.values());
    }

    /** The kernel duration histogram, or null without kernels. */
    public KernelDurations durations() {
        closeStream();
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
        closeStream();
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

        void clear() {
            head = 0;
            size = 0;
        }
    }
}
