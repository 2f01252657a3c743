package dlproflint.facts;

import java.util.ArrayList;
import java.util.List;

/**
 * Busy time of one GPU for one process in {@link #BINS} equal bins between its first and last GPU
 * operation (overlapping operations counted once; profiler overhead counted as busy). Rules re-bin it
 * into their own number of chunks, like {@code nsys analyze gpu_time_util}.
 */
public record GpuTimeline(int deviceId, long pid, long startNs, long endNs, long[] busyNs) {
    /** 960 divides evenly into 1..6, 8, 10, 12, 15, 16, 20, 24, 30, 32, 40, 48, 60... chunks. */
    public static final int BINS = 960;

    /** A run of adjacent chunks whose utilization is under the threshold. */
    public record LowPeriod(long startNs, long durationNs, double utilizationPct, int chunks) {
    }

    /** Utilization per chunk (0..100) when the span is split into {@code chunks} equal parts. */
    public double[] chunkUtilization(double chunks) {
        int n = (int) Math.max(1, Math.min(Math.round(chunks), 1000));
        double[] util = new double[n];
        double binsPerChunk = (double) busyNs.length / n;
        double chunkNs = (double) (endNs - startNs) / n;
        for (int c = 0; c < n; c++) {
            double from = c * binsPerChunk;
            double to = from + binsPerChunk;
            double busy = 0;
            for (int b = (int) Math.floor(from); b < Math.ceil(to) && b < busyNs.length; b++) {
                double overlap = Math.min(to, b + 1) - Math.max(from, b);
                if (overlap > 0) busy += busyNs[b] * overlap;
            }
            util[c] = Percent.of(busy, chunkNs); // busy bins are merged intervals: at most the chunk
        }
        return util;
    }

    /** Adjacent low chunks merged, with their duration-weighted utilization (nsys merges them the same way). */
    public List<LowPeriod> lowPeriods(double chunks, double thresholdPct) {
        double[] util = chunkUtilization(chunks);
        double chunkNs = (double) (endNs - startNs) / util.length;
        List<LowPeriod> out = new ArrayList<>();
        int c = 0;
        while (c < util.length) {
            if (util[c] >= thresholdPct) {
                c++;
                continue;
            }
            int first = c;
            double sum = 0;
            while (c < util.length && util[c] < thresholdPct) sum += util[c++];
            int k = c - first;
            out.add(new LowPeriod(startNs + Math.round(first * chunkNs), Math.round(k * chunkNs), sum / k, k));
        }
        return out;
    }

    public long spanNs() {
        return endNs - startNs;
    }
}
