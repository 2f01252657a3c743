package dlproflint.extract.nsys;

import dlproflint.extract.common.ApiNames;
import dlproflint.extract.common.HostSyncStats;
import dlproflint.extract.common.StreamStats;
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
 * The GPU-stream facts of the {@code pytorch} pack from an Nsight Systems export, in two streaming queries: every
 * kernel, copy and memset launched inside the aggregated range, per (device, process, stream) in start order and
 * joined to the CUDA API call that launched it (same process, same {@code correlationId}), through
 * {@link StreamStats}; and the synchronising API calls of the range, in start order against the GPU's activity in
 * start order, through {@link SyncIdle}. Nothing is held per launch.
 */
final class NsysStreamPass {
    private static final String RUNTIME = "CUPTI_ACTIVITY_KIND_RUNTIME";
    private static final String[] GPU = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"};

    private final NsysDatabase db;

    NsysStreamPass(NsysDatabase db) {
        this.db = db;
    }

    /**
     * @param from, to the aggregated range [from, to): GPU work whose launch call (else itself) started in it counts
     * @param steps    the aggregated steps' windows {start, end} in start order; empty when the profile has no steps
     */
    void collect(long from, long to, long[][] steps, ProfileFacts.Builder out) throws SQLException {
        String gpu = gpuUnion();
        if (gpu == null) return;
        streams(gpu, from, to, out);
        syncs(gpu, from, to, steps, out);
    }

    /** Kernels (kind 0), copies (1) and memsets (2) with device, stream, process and correlation id; null without any. */
    private String gpuUnion() {
        List<String> parts = new ArrayList<>();
        for (int kind = 0; kind < GPU.length; kind++) {
            String t = GPU[kind];
            if (!db.has(t) || !db.hasColumn(t, "start") || !db.hasColumn(t, "end")) continue;
            parts.add("SELECT " + kind + " AS kind, " + db.col(t, "deviceId", "0") + " AS dev, " + db.col(t, "streamId", "0")
                    + " AS stream, " + pid(db.col(t, "globalPid", "0")) + " AS pid, " + db.col(t, "correlationId", "NULL")
                    + " AS corr, start AS s, end AS e FROM " + t);
        }
        return parts.isEmpty() ? null : String.join(" UNION ALL ", parts);
    }

    private static String pid(String globalId) {
        return "((" + globalId + " >> 24) & 16777215)";
    }

    private boolean runtimeLinks() {
        return db.has(RUNTIME) && db.hasColumn(RUNTIME, "correlationId") && db.hasColumn(RUNTIME, "start");
    }

    private void streams(String gpu, long from, long to, ProfileFacts.Builder out) throws SQLException {
        String sql;
        if (runtimeLinks()) {
            sql = "SELECT g.dev, g.pid, g.stream, g.kind, g.s, g.e, r.start, r.end FROM (" + gpu + ") g LEFT JOIN (SELECT "
                    + pid(db.col(RUNTIME, "globalTid", "0")) + " AS pid, correlationId AS corr, start, end FROM " + RUNTIME
                    + ") r ON r.pid = g.pid AND r.corr = g.corr WHERE COALESCE(r.start, g.s) >= ? AND COALESCE(r.start, g.s) < ?"
                    + " ORDER BY g.dev, g.pid, g.stream, g.s";
        } else {
            sql = "SELECT dev, pid, stream, kind, s, e, NULL, NULL FROM (" + gpu + ") WHERE s >= ? AND s < ? ORDER BY dev, pid, stream, s";
        }
        StreamStats stats = new StreamStats();
        try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
            ps.setLong(1, from);
            ps.setLong(2, to);
            try (ResultSet rs = ps.executeQuery()) {
                long dev = Long.MIN_VALUE;
                long pid = Long.MIN_VALUE;
                long stream = Long.MIN_VALUE;
                while (rs.next()) {
                    if (rs.getLong(1) != dev || rs.getLong(2) != pid || rs.getLong(3) != stream) {
                        dev = rs.getLong(1);
                        pid = rs.getLong(2);
                        stream = rs.getLong(3);
                        stats.stream((int) dev, stream);
                    }
                    long callStart = rs.getLong(7);
                    boolean linked = !rs.wasNull();
                    long callEnd = rs.getLong(8);
                    stats.op(rs.getInt(4) == 0, rs.getLong(5), rs.getLong(6), linked ? callStart : StreamStats.NO_CALL,
                            linked ? callEnd : StreamStats.NO_CALL);
                }
            }
        }
        stats.idleBreakdowns().forEach(out::idleBreakdown);
        out.kernelDurations(stats.durations());
        out.launches(stats.launches());
    }

    private void syncs(String gpu, long from, long to, long[][] steps, ProfileFacts.Builder out) throws SQLException {
        if (!db.has(RUNTIME) || !db.hasColumn(RUNTIME, "nameId") || !db.has("StringIds")) return;
        Map<Long, String> names = new LinkedHashMap<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT id, value FROM StringIds WHERE value LIKE 'cu%Synchronize%'")) {
            while (rs.next()) {
                String api = ApiNames.normalize(rs.getString(2));
                if (SyncPoints.blockingApi(api)) names.put(rs.getLong(1), api);
            }
        }
        if (names.isEmpty()) return;
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
        if (calls.isEmpty()) return;
        long idle;
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT s, e FROM (" + gpu + ") ORDER BY s")) {
            SyncIdle sweep = new SyncIdle(new SyncIdle.Intervals() {
                @Override
                public boolean next() throws SQLException {
                    return rs.next();
                }

                @Override
                public long start() {
                    return get(1);
                }

                @Override
                public long end() {
                    return get(2);
                }

                private long get(int column) {
                    try {
                        return rs.getLong(column);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            for (int i = 0; i < calls.size(); i++) {
                sweep.call(calls.get(i)[0], calls.get(i)[1], i + 1 < calls.size() ? calls.get(i + 1)[0] : Long.MAX_VALUE);
            }
            idle = sweep.idleNs();
        } catch (SQLException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new SQLException(e);
        }
        long[] starts = new long[calls.size()];
        long[] ends = new long[calls.size()];
        String[] apis = new String[calls.size()];
        for (int i = 0; i < starts.length; i++) {
            starts[i] = calls.get(i)[0];
            ends[i] = calls.get(i)[1];
            apis[i] = names.get(calls.get(i)[2]);
        }
        out.hostSyncs(HostSyncStats.of(starts, ends, apis, steps, idle));
    }
}
