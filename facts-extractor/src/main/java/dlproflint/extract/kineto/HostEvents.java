package dlproflint.extract.kineto;

import dlproflint.extract.common.CaptureOverhead;

import java.util.Arrays;

/**
 * The host events the profiler recorded, as columns (no object per event): what {@link CaptureOverhead} estimates the
 * profiler's own cost from, and what the measurement layer's replay takes that cost off per event.
 */
final class HostEvents {
    /**
     * Events kept at most (25 bytes each, ~50 MB): the estimate needs a few thousand ops; a larger trace keeps the
     * first ones and is not corrected ({@link #perEventNs} says so), which bounds its memory like the readers' other columns.
     */
    static final int MAX_EVENTS = 2_000_000;
    private boolean full;
    private final LongColumn start = new LongColumn();
    private final LongColumn end = new LongColumn();
    private final LongColumn thread = new LongColumn();
    private byte[] kind = new byte[1024];

    void add(String category, long startNs, long endNs, long threadKey) {
        byte k = switch (category) {
            case "cpu_op" -> CaptureOverhead.OP;
            case "cuda_runtime", "cuda_driver" -> CaptureOverhead.CALL;
            case "user_annotation", "cpu_instant_event" -> CaptureOverhead.OTHER;
            default -> -1;
        };
        if (k < 0) return;
        int n = start.size();
        if (n >= MAX_EVENTS) {
            full = true;
            return;
        }
        if (n == kind.length) kind = Arrays.copyOf(kind, n + (n >> 1));
        kind[n] = k;
        start.add(startNs);
        end.add(endNs);
        thread.add(threadKey);
    }

    int size() {
        return start.size();
    }

    /** Events that started in [from, to). */
    long count(long from, long to) {
        long n = 0;
        for (int i = 0; i < start.size(); i++) if (start.get(i) >= from && start.get(i) < to) n++;
        return n;
    }

    /**
     * For each query, the start of the first event with a duration that the thread {@code onThread[q]} recorded at or
     * after {@code at[q]} ({@link Long#MAX_VALUE} when none): where the thread's quiet time after a moment ends.
     * Instant events (allocator records) are not work the thread did, so they do not end it. The queries come in
     * time order ({@code at} ascending) and are few (one per batch hand-over); one pass over the events.
     */
    long[] firstAfter(long[] at, long[] onThread) {
        int q = at.length;
        long[] first = new long[q];
        Arrays.fill(first, Long.MAX_VALUE);
        long[] threads = Arrays.stream(onThread).distinct().toArray(); // few: the threads that iterate a loader
        long[][] times = new long[threads.length][];
        int[][] index = new int[threads.length][];
        for (int t = 0; t < threads.length; t++) {
            long th = threads[t];
            index[t] = java.util.stream.IntStream.range(0, q).filter(i -> onThread[i] == th).toArray();
            times[t] = Arrays.stream(index[t]).mapToLong(i -> at[i]).toArray();
        }
        for (int i = 0; i < start.size(); i++) {
            long s = start.get(i);
            if (end.get(i) <= s) continue;
            int t = 0;
            while (t < threads.length && threads[t] != thread.get(i)) t++;
            if (t == threads.length) continue;
            // the thread's latest query at or before s: s is its candidate (earlier queries take it below)
            int j = SortedLongs.atOrBelow(times[t], s) - 1;
            if (j >= 0 && s < first[index[t][j]]) first[index[t][j]] = s;
        }
        // a query with no event before the thread's next query ends where that one does
        for (int t = 0; t < threads.length; t++) {
            for (int j = index[t].length - 2; j >= 0; j--) {
                first[index[t][j]] = Math.min(first[index[t][j]], first[index[t][j + 1]]);
            }
        }
        return first;
    }

    /** The events' start times, sorted. */
    long[] sortedStarts() {
        return start.sorted();
    }

    /** {@link CaptureOverhead#perEventNs}, -1 without enough single-launch ops or when not every event was kept. */
    double perEventNs() {
        if (full) return -1;
        int n = start.size();
        long[] t = new long[n];
        long[] s = new long[n];
        long[] e = new long[n];
        for (int i = 0; i < n; i++) {
            t[i] = thread.get(i);
            s[i] = start.get(i);
            e[i] = end.get(i);
        }
        return CaptureOverhead.perEventNs(t, s, e, Arrays.copyOf(kind, n));
    }
}
