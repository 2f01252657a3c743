package dlproflint.extract.nsys;

import dlproflint.extract.common.ApiNames;
import dlproflint.extract.common.HostSyncStats;
import dlproflint.extract.common.SyncIdle;
import dlproflint.extract.common.SyncPoints;
import dlproflint.facts.ProfileFacts;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The host-blocking synchronisation calls of the {@code pytorch} pack from an Nsight Systems export: the few calls
 * of the aggregated range are selected by name in SQL ({@link #load}), then the GPU's operations, in start order,
 * come from the GPU busy sweep ({@link TimelinePass#busy}) through {@link #gpu} to measure the GPU idle time they
 * caused ({@link SyncIdle}). Nothing is held per operation. (The streams' statistics of the same pack come from
 * the correlation pass, which meets every operation with its launch call.)
 */
final class NsysHostSyncs {
    private static final String RUNTIME = "CUPTI_ACTIVITY_KIND_RUNTIME";

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
     * The blocking calls that started in {@code [from, to)}, in start order; null when there are none or the export
     * has no GPU work to measure them against.
     */
    static NsysHostSyncs load(NsysDatabase db, long from, long to) throws SQLException {
        boolean gpu = false;
        for (String t : NsysDatabase.GPU_TABLES) gpu |= db.has(t) && db.hasColumn(t, "start") && db.hasColumn(t, "end");
        if (!gpu || !db.has(RUNTIME) || !db.hasColumn(RUNTIME, "nameId") || !db.has("StringIds")) return null;
        Map<Long, String> names = new LinkedHashMap<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT id, value FROM StringIds WHERE value LIKE 'cu%Synchronize%'")) {
            while (rs.next()) {
                String api = ApiNames.normalize(rs.getString(2));
                if (SyncPoints.blockingApi(api)) names.put(rs.getLong(1), api);
            }
        }
        if (names.isEmpty()) return null;
        StringBuilder in = new StringBuilder();
        for (Long id : names.keySet()) in.append(in.length() == 0 ? "" : ",").append(id);
        List<long[]> calls = new ArrayList<>(); // the sync calls of the range: few, kept
        try (PreparedStatement ps = db.connection().prepareStatement("SELECT start, end, nameId FROM " + RUNTIME
                + " WHERE nameId IN (" + in + ") AND start >= ? AND start < ? ORDER BY start")) {
            ps.setLong(1, from);
            ps.setLong(2, to);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) calls.add(new long[] {rs.getLong(1), Math.max(rs.getLong(1), rs.getLong(2)), rs.getLong(3)});
            }
        }
        if (calls.isEmpty()) return null;
        long[] starts = new long[calls.size()];
        long[] ends = new long[calls.size()];
        String[] apis = new String[calls.size()];
        for (int i = 0; i < starts.length; i++) {
            starts[i] = calls.get(i)[0];
            ends[i] = calls.get(i)[1];
            apis[i] = names.get(calls.get(i)[2]);
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
