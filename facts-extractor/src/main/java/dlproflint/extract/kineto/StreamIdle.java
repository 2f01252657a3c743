package dlproflint.extract.kineto;

import dlproflint.facts.DurationBucket;
import dlproflint.facts.IdleBreakdown;
import dlproflint.facts.KernelDurations;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * HTA's idle time breakdown per stream, and the kernel duration histogram with the launch gap after each
 * kernel: both walk each stream's operations in start order once.
 */
final class StreamIdle {
    /** HTA's {@code consecutive_kernel_delay}: a shorter gap between queued operations is launch latency. */
    static final long KERNEL_WAIT_NS = 30_000;

    private StreamIdle() {
    }

    /** One {@link IdleBreakdown} per device: its stream with the most kernel time. */
    static List<IdleBreakdown> breakdowns(GpuStreams s) {
        Map<Integer, long[]> best = new TreeMap<>(); // device -> {group, kernel ns}
        for (int g = 0; g < s.groups(); g++) {
            long kernelNs = 0;
            for (int i = s.groupStart[g]; i < s.groupStart[g + 1]; i++) {
                if (s.table(i) == GpuStreams.KERNEL) kernelNs += s.duration(i);
            }
            long[] cur = best.get(s.groupDevice[g]);
            if (kernelNs > 0 && (cur == null || kernelNs > cur[1])) best.put(s.groupDevice[g], new long[] {g, kernelNs});
        }
        List<IdleBreakdown> out = new ArrayList<>();
        for (long[] b : best.values()) out.add(breakdown(s, (int) b[0]));
        return out;
    }

    private static IdleBreakdown breakdown(GpuStreams s, int g) {
        int from = s.groupStart[g];
        int to = s.groupStart[g + 1];
        long host = 0;
        long kernel = 0;
        long other = 0;
        long gaps = 0;
        long hostGaps = 0;
        long launchHost = 0;
        long first = s.start(from);
        long lastEnd = s.end(from);
        for (int i = from + 1; i < to; i++) {
            long gap = s.start(i) - lastEnd;
            if (gap > 0) {
                gaps++;
                // host wait: the next operation was launched only after the previous one had finished
                if (s.linked(i) && s.callStart(i) > lastEnd) {
                    host += gap;
                    hostGaps++;
                    if (gap < LaunchQueue.RUNTIME_CUTOFF_NS) launchHost += gap;
                } else if (gap < KERNEL_WAIT_NS) kernel += gap;
                else other += gap;
            }
            lastEnd = Math.max(lastEnd, s.end(i));
        }
        long span = lastEnd - first;
        long idle = host + kernel + other;
        return new IdleBreakdown(s.groupDevice[g], s.groupStream[g], span, span - idle, host, kernel, other, gaps, hostGaps, launchHost);
    }

    /** The kernels' durations, with the gap (up to {@link #KERNEL_WAIT_NS}) before the next operation of their stream. */
    static KernelDurations durations(GpuStreams s) {
        long[] bounds = KernelDurations.BOUNDS_NS;
        long[] count = new long[bounds.length + 1];
        long[] total = new long[bounds.length + 1];
        long[] gap = new long[bounds.length + 1];
        long kernels = 0;
        long kernelNs = 0;
        for (int g = 0; g < s.groups(); g++) {
            int end = s.groupStart[g + 1];
            for (int i = s.groupStart[g]; i < end; i++) {
                if (s.table(i) != GpuStreams.KERNEL) continue;
                long d = s.duration(i);
                int b = 0;
                while (b < bounds.length && d >= bounds[b]) b++;
                count[b]++;
                total[b] += d;
                if (i + 1 < end) gap[b] += Math.max(0, Math.min(KERNEL_WAIT_NS, s.start(i + 1) - s.end(i)));
                kernels++;
                kernelNs += d;
            }
        }
        if (kernels == 0) return null;
        List<DurationBucket> buckets = new ArrayList<>();
        for (int b = 0; b <= bounds.length; b++) {
            buckets.add(new DurationBucket(b < bounds.length ? bounds[b] : Long.MAX_VALUE, count[b], total[b], gap[b]));
        }
        return new KernelDurations(kernels, kernelNs, buckets);
    }
}
