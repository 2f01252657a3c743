package dlproflint.extract.common;

/**
 * The GPU idle time host-blocking calls cause: from each call's start until the GPU's next operation after the call
 * returned, no later than the next call's start (so nothing counts twice). While the host waits, the queue of
 * launched work drains; after the call returns the GPU waits again until the host launches new work.
 *
 * <p>The calls are few and known first; the GPU operations are pushed through {@link #gpu} in start order, so a
 * reader can feed them from a sweep it makes anyway (the nsys reader's GPU busy sweep) and nothing is kept per
 * operation: they are merged into busy periods, and each finished period is matched against the calls.
 */
public final class SyncIdle {
    /** GPU operation intervals in start order; they may overlap. */
    public interface Intervals {
        /** Advances to the next interval; false at the end. */
        boolean next() throws Exception;

        long start();

        long end();

        /** Intervals held in two arrays, already in start order. */
        static Intervals of(long[] starts, long[] ends) {
            return new Intervals() {
                private int at = -1;

                @Override
                public boolean next() {
                    return ++at < starts.length;
                }

                @Override
                public long start() {
                    return starts[at];
                }

                @Override
                public long end() {
                    return ends[at];
                }
            };
        }
    }

    private final long[] callStart;
    private final long[] callEnd;
    /** the call being matched, and whether its walk over the busy periods has begun (from {@code t}) */
    private int call;
    private boolean inCall;
    private long t;
    /** the busy period being merged */
    private boolean open;
    private long cs;
    private long ce;
    private long idle;
    private boolean finished;

    /** @param starts, ends the calls, in start order */
    public SyncIdle(long[] starts, long[] ends) {
        this.callStart = starts;
        this.callEnd = ends;
    }

    /** The idle time the calls caused against the GPU operations of {@code gpu}. */
    public static long measure(Intervals gpu, long[] starts, long[] ends) throws Exception {
        SyncIdle s = new SyncIdle(starts, ends);
        while (gpu.next()) s.gpu(gpu.start(), gpu.end());
        return s.idleNs();
    }

    /** The next GPU operation, in start order. */
    public void gpu(long start, long end) {
        if (finished) throw new IllegalStateException("gpu() after idleNs()");
        if (call >= callStart.length) return; // every call is matched: nothing left to measure
        end = Math.max(start, end);
        if (!open) {
            open = true;
            cs = start;
            ce = end;
        } else if (start > ce) {
            period(cs, ce);
            cs = start;
            ce = end;
        } else {
            ce = Math.max(ce, end);
        }
    }

    /** The idle time of all calls; the GPU operations are all fed. */
    public long idleNs() {
        if (!finished) {
            finished = true;
            if (open) period(cs, ce);
            open = false;
            while (call < callStart.length) {
                if (!inCall) t = callStart[call];
                finishCall(callEnd[call]);
            }
        }
        return idle;
    }

    /** One busy period, after those before it: advances the calls it concerns. */
    private void period(long ps, long pe) {
        while (call < callStart.length) {
            long start = callStart[call];
            long end = callEnd[call];
            if (!inCall) {
                if (pe <= start) return; // finished before the call began
                inCall = true;
                t = start;
            }
            if (ps >= end) {
                finishCall(ps); // the GPU's next operation after the call returned
                continue;
            }
            long nextStart = nextStart();
            if (ps > t) idle += Math.max(0, Math.min(ps, nextStart) - t);
            t = Math.max(t, pe);
            if (pe > end) {
                finishCall(end); // still busy when the call returns: nothing to wait for after it
                continue;
            }
            return; // the next period continues this call
        }
    }

    private long nextStart() {
        return call + 1 < callStart.length ? callStart[call + 1] : Long.MAX_VALUE;
    }

    private void finishCall(long until) {
        long stop = Math.min(until, nextStart());
        if (stop > t) idle += stop - t;
        call++;
        inCall = false;
    }
}
