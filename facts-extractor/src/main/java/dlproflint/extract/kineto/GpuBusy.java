package dlproflint.extract.kineto;

import java.util.Arrays;

/**
 * When any GPU of the trace ran something (kernel, copy, memset): the merged busy intervals, with prefix sums
 * so that the busy time inside any range costs two binary searches.
 */
final class GpuBusy {
    private final long[] starts;
    private final long[] ends;
    private final long[] busyBefore;

    /** @param opStarts, opEnds the operations' start and end times, in any order */
    GpuBusy(long[] opStarts, long[] opEnds) {
        long[] s = opStarts.clone();
        long[] e = opEnds.clone();
        // merge: sort by start, carrying the end along
        ParallelSort.sort(s, e);
        int n = 0;
        for (int i = 0; i < s.length; i++) {
            if (n > 0 && s[i] <= e[n - 1]) {
                e[n - 1] = Math.max(e[n - 1], e[i]);
            } else {
                s[n] = s[i];
                e[n] = e[i];
                n++;
            }
        }
        this.starts = Arrays.copyOf(s, n);
        this.ends = Arrays.copyOf(e, n);
        this.busyBefore = new long[n + 1];
        for (int i = 0; i < n; i++) busyBefore[i + 1] = busyBefore[i] + ends[i] - starts[i];
    }

    /** Busy time inside [from, to). */
    long busy(long from, long to) {
        if (to <= from) return 0;
        return busyUntil(to) - busyUntil(from);
    }

    private long busyUntil(long t) {
        int i = Arrays.binarySearch(starts, t);
        if (i < 0) i = -i - 2; // last interval starting at or before t
        else while (i + 1 < starts.length && starts[i + 1] == t) i++;
        if (i < 0) return 0;
        return busyBefore[i] + Math.min(ends[i], t) - starts[i];
    }

    /** The first instant at or after {@code t} at which the GPU is busy: {@code t} itself inside an interval. */
    long nextBusy(long t) {
        int i = Arrays.binarySearch(starts, t);
        if (i >= 0) return t;
        int before = -i - 2;
        if (before >= 0 && ends[before] > t) return t;
        int after = -i - 1;
        return after < starts.length ? starts[after] : Long.MAX_VALUE;
    }

    /**
     * GPU idle time caused by host-blocking calls: from each call's start until the GPU's next operation after
     * the call returned (no later than the next call's start, so nothing counts twice).
     *
     * @param s, e the calls' start and end times, sorted by start
     */
    long idleAfterHostCalls(long[] s, long[] e) {
        long idle = 0;
        for (int i = 0; i < s.length; i++) {
            long next = nextBusy(e[i]);
            long until = next == Long.MAX_VALUE ? e[i] : next;
            if (i + 1 < s.length) until = Math.min(until, s[i + 1]);
            if (until > s[i]) idle += (until - s[i]) - busy(s[i], until);
        }
        return idle;
    }
}
