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
