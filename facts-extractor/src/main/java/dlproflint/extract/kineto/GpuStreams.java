package dlproflint.extract.kineto;

import dlproflint.extract.kineto.KinetoAggregator.GpuColumns;

import java.util.HashMap;
import java.util.Map;

/**
 * The GPU operations (kernels, copies, memsets) of the analysed range, grouped by (device, stream) and in start
 * order inside each group, each with the host call that launched it. An operation belongs to the range when
 * its launch call started inside it (GPU work launched in a step belongs to that step, however late it runs);
 * an operation without a linked call, when it started inside it. Built from the reader's primitive columns:
 * a few arrays, no object per operation.
 */
final class GpuStreams {
    static final int KERNEL = 0;
    static final int MEMCPY = 1;
    static final int MEMSET = 2;

    private final GpuColumns[] tables;
    private final LaunchCalls calls;
    /** operations in group order: table in the high bits, row in the low 32 bits */
    final long[] ops;
    /** the launch call of each operation in {@link #ops}, or -1 */
    final int[] call;
    /** {@code groupStart[g]..groupStart[g+1]} are group g's operations */
    final int[] groupStart;
    final int[] groupDevice;
    final long[] groupStream;

    GpuStreams(GpuColumns kernels, GpuColumns memcpys, GpuColumns memsets, LaunchCalls calls, long from, long to) {
        this.tables = new GpuColumns[] {kernels, memcpys, memsets};
        this.calls = calls;
        int total = kernels.size() + memcpys.size() + memsets.size();
        long[] starts = new long[total];
        long[] refs = new long[total];
        int n = 0;
        for (int t = 0; t < 3; t++) {
            GpuColumns c = tables[t];
            for (int r = 0; r < c.size(); r++) {
                int launch = calls.find(c.correlation.get(r));
                long at = launch >= 0 ? calls.start(launch) : c.start.get(r);
                if (at < from || at >= to) continue;
                starts[n] = c.start.get(r);
                refs[n++] = ((long) t << 32) | r;
            }
        }
        starts = java.util.Arrays.copyOf(starts, n);
        refs = java.util.Arrays.copyOf(refs, n);
        ParallelSort.sort(starts, refs);
        // stable counting sort by (device, stream) keeps the start order inside each group
        Map<Long, Integer> groupOf = new HashMap<>();
        int[] group = new int[n];
        java.util.List<long[]> keys = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            GpuColumns c = tables[(int) (refs[i] >>> 32)];
            int r = (int) refs[i];
            long key = ((long) c.device.get(r) << 32) | (c.stream.get(r) & 0xffffffffL);
            Integer g = groupOf.get(key);
            if (g == null) {
                g = keys.size();
                groupOf.put(key, g);
                keys.add(new long[] {c.device.get(r), c.stream.get(r)});
            }
            group[i] = g;
        }
        int groups = keys.size();
        groupStart = new int[groups + 1];
        for (int i = 0; i < n; i++) groupStart[group[i] + 1]++;
        for (int g = 0; g < groups; g++) groupStart[g + 1] += groupStart[g];
        int[] fill = groupStart.clone();
        ops = new long[n];
        call = new int[n];
        for (int i = 0; i < n; i++) {
            int at = fill[group[i]]++;
            ops[at] = refs[i];
            call[at] = calls.find(tables[(int) (refs[i] >>> 32)].correlation.get((int) refs[i]));
        }
        groupDevice = new int[groups];
        groupStream = new long[groups];
        for (int g = 0; g < groups; g++) {
            groupDevice[g] = (int) keys.get(g)[0];
            groupStream[g] = keys.get(g)[1];
        }
    }

    int groups() {
        return groupDevice.length;
    }

    int size() {
        return ops.length;
    }

    int table(int i) {
        return (int) (ops[i] >>> 32);
    }

    private int row(int i) {
        return (int) ops[i];
    }

    long start(int i) {
        return tables[table(i)].start.get(row(i));
    }

    long duration(int i) {
        return tables[table(i)].dur.get(row(i));
    }

    long end(int i) {
        return start(i) + duration(i);
    }

    long bytes(int i) {
        return tables[table(i)].bytes.get(row(i));
    }

    int nameIndex(int i) {
        return tables[table(i)].nameIndex.get(row(i));
    }

    int device(int i) {
        return tables[table(i)].device.get(row(i));
    }

    /** Row in its own table (for per-kernel columns such as occupancy). */
    int rowOf(int i) {
        return row(i);
    }

    boolean linked(int i) {
        return call[i] >= 0;
    }

    long callStart(int i) {
        return calls.start(call[i]);
    }

    long callEnd(int i) {
        return calls.end(call[i]);
    }

    long callDuration(int i) {
        return calls.duration(call[i]);
    }

    /** When the operation joined the range: its launch call's start, else its own start. */
    long launchedAt(int i) {
        return call[i] >= 0 ? calls.start(call[i]) : start(i);
    }
}
