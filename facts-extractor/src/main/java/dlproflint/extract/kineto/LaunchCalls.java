package dlproflint.extract.kineto;

import java.util.Arrays;

/**
 * The host calls that put GPU work on a stream (kernel launches, async copies and memsets), kept as
 * primitive columns while the trace streams by, then indexed by CUPTI correlation id: a GPU activity and
 * the call that launched it share it (the reference's linking rule; it held for every corpus trace).
 */
final class LaunchCalls {
    private final LongColumn correlation = new LongColumn();
    private final LongColumn start = new LongColumn();
    private final LongColumn dur = new LongColumn();
    private long[] sortedIds;
    private int[] order;

    void add(long correlationId, long startNs, long durNs) {
        correlation.add(correlationId);
        start.add(startNs);
        dur.add(durNs);
    }

    int size() {
        return correlation.size();
    }

    /** Index of the call with this correlation id, or -1; the first call freezes the index. */
    int find(long correlationId) {
        if (correlationId == TraceEvent.NONE) return -1;
        if (sortedIds == null) index();
        int i = Arrays.binarySearch(sortedIds, correlationId);
        return i < 0 ? -1 : order[i];
    }

    /** The correlation id of call {@code call} (in the order the calls were added). */
    long correlation(int call) {
        return correlation.get(call);
    }

    long start(int call) {
        return start.get(call);
    }

    long end(int call) {
        return start.get(call) + dur.get(call);
    }

    long duration(int call) {
        return dur.get(call);
    }

    private void index() {
        int n = correlation.size();
        ParallelSort.Order byId = ParallelSort.order(n, correlation::get);
        long[] ids = byId.keys();
        order = new int[n];
        for (int i = 0; i < n; i++) order[i] = byId.row(i);
        sortedIds = ids;
    }
}
