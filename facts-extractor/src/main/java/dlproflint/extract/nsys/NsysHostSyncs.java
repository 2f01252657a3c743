package dlproflint.extract.nsys;

import dlproflint.extract.common.HostSyncStats;
import dlproflint.extract.common.SyncIdle;
import dlproflint.facts.ProfileFacts;

/**
 * The host-blocking synchronisation calls of the {@code pytorch} pack from an Nsight Systems export: the few calls
 * of the aggregated range, selected by name from the correlation pass's read ({@link SelectedCalls}); then the GPU's
 * operations, in start order, come from the GPU busy sweep ({@link TimelinePass#busy}) through {@link #gpu} to measure the GPU idle time they
 * caused ({@link SyncIdle}). Nothing is held per operation. (The streams' statistics of the same pack come from
 * the correlation pass, which meets every operation with its launch call.)
 */
final class NsysHostSyncs {
    private final long[] starts;
    private final long[] ends;
    private final String[] apis;
    private final SyncIdle idle;

    private NsysHostSyncs(long[] starts, long[] ends, String[] apis) {
        this.starts = starts;
        this.ends = ends;
        this.apis = apis;
        this.idle = new SyncIdle(starts, ends);
    }

    /**
     * The blocking calls that started in {@code [from, to)}, in start order, of those the correlation pass selected;
     * null when there are none or the export has no GPU work to measure them against.
     */
    static NsysHostSyncs load(NsysDatabase db, SelectedCalls selected, long from, long to) {
        boolean gpu = false;
        for (String t : NsysDatabase.GPU_TABLES) gpu |= db.has(t) && db.hasColumn(t, "start") && db.hasColumn(t, "end");
        if (!gpu || selected.blocking.isEmpty()) return null;
        int[] blocking = selected.of(SelectedCalls.BLOCKING);
        int n = 0; // the sync calls of the range: few, kept
        for (int i : blocking) if (selected.start(i) >= from && selected.start(i) < to) blocking[n++] = i;
        if (n == 0) return null;
        int[] byStart = selected.inOrder(java.util.Arrays.copyOf(blocking, n), false);
        long[] starts = new long[n];
        long[] ends = new long[n];
        String[] apis = new String[n];
        for (int k = 0; k < n; k++) {
            int c = byStart[k];
            starts[k] = selected.start(c);
            ends[k] = Math.max(selected.start(c), selected.end(c));
            apis[k] = selected.blocking.get(selected.nameId(c));
        }
        return new NsysHostSyncs(starts, ends, apis);
    }

    /** The next GPU operation (kernel, copy or memset of any device), in start order. */
    void gpu(long start, long end) {
        idle.gpu(start, end);
    }

    /** @param steps the aggregated steps' windows {start, end} in start order; empty when the profile has no steps */
    void collect(long[][] steps, ProfileFacts.Builder out) {
        out.hostSyncs(HostSyncStats.of(starts, ends, apis, steps, idle.idleNs()));
    }
}
