package dlproflint.extract.common;

/**
 * The GPU idle time host-blocking calls cause: from each call's start until the GPU's next operation after the call
 * returned, no later than the next call's start (so nothing counts twice). While the host waits, the queue of
 * launched work drains; after the call returns the GPU waits again until the host launches new work. Both inputs
 * come in start order, so a reader can stream them (SQL {@code ORDER BY start}) through it.
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

    private final Intervals source;
    /** the current merged busy interval */
    private long cs;
    private long ce;
    private boolean current;
    /** the source interval read ahead while merging */
    private long ns;
    private long ne;
    private boolean ahead;
    private long idle;

    public SyncIdle(Intervals gpu) throws Exception {
        this.source = gpu;
        if (read()) {
            ahead = false;
            cs = ns;
            ce = ne;
            current = true;
            merge();
        }
    }

    private boolean read() throws Exception {
        if (!source.next()) return false;
        ns = source.start();
        ne = Math.max(ns, source.end());
        ahead = true;
        return true;
    }

    /** Extends the current interval over every following one that overlaps it. */
    private void merge() throws Exception {
        while (read()) {
            if (ns > ce) return; // kept as the next one
            ce = Math.max(ce, ne);
            ahead = false;
        }
        ahead = false;
    }

    private void advance() throws Exception {
        if (!ahead) {
            current = false;
            return;
        }
        cs = ns;
        ce = ne;
        ahead = false;
        merge();
    }

    /**
     * One call, in start order.
     *
     * @param nextStart the next call's start, or {@link Long#MAX_VALUE}
     */
    public void call(long start, long end, long nextStart) throws Exception {
        while (current && ce <= start) advance(); // finished before the call began
        long t = start;
        long until = end;
        while (current) {
            if (cs >= end) {
                until = cs; // the GPU's next operation after the call returned
                break;
            }
            if (cs > t) idle += Math.max(0, Math.min(cs, nextStart) - t);
            t = Math.max(t, ce);
            if (ce > end) break; // still busy when the call returns: nothing to wait for after it
            advance();
        }
        long stop = Math.min(until, nextStart);
        if (stop > t) idle += stop - t;
    }

    public long idleNs() {
        return idle;
    }
}
