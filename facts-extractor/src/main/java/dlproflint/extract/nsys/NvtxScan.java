package dlproflint.extract.nsys;

import dlproflint.facts.Marker;
import dlproflint.facts.ModelConfig;

import dlproflint.extract.common.RowCursor;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * First pass over NVTX_EVENTS (one ORDER BY stream, per-thread stacks): marker statistics, framework
 * detection, the plugin's model_config mark, and the stop times of the key node's instances (matched by op
 * name or range text), grouped by thread for the multi-GPU rule.
 */
final class NvtxScan {
    long ranges;
    long aten;
    long dlprofMarkers;
    long textIdRanges;
    long xla;
    long dali;
    boolean tensorRtDomain;
    ModelConfig modelConfig = ModelConfig.unknown();
    final Map<Long, List<Long>> keyStopsByThread = new HashMap<>();
    long unclosed;

    static final String RANGE_TYPES = "59, 60";

    static String textExpr(NsysDatabase db) {
        boolean text = db.hasColumn("NVTX_EVENTS", "text");
        boolean textId = db.hasColumn("NVTX_EVENTS", "textId");
        if (text && textId) return "text, textId";
        if (text) return "text, NULL";
        if (textId) return "NULL, textId";
        return "NULL, NULL";
    }

    /** Stop time recorded for a key-node range that is never closed, before the profile's end is known. */
    static final long UNCLOSED = Long.MAX_VALUE;

    /**
     * The key-node pass: stop times of the key node's instances per thread. Ranges never closed stop at
     * {@code profileEnd}, which may be {@link #UNCLOSED} until {@link #closeUnclosed} gives the real end.
     */
    void run(NsysDatabase db, String keyNode, long profileEnd) throws SQLException {
        if (!db.has("NVTX_EVENTS") || !db.hasColumn("NVTX_EVENTS", "start")) return;
        String tidCol = db.col("NVTX_EVENTS", "globalTid", "0");
        String where = db.col("NVTX_EVENTS", "eventType", "59") + " IN (34, " + RANGE_TYPES + ")";
        // same order as the correlation pass, so an already-sorted export is read without sorting
        String pid = NsysDatabase.pidOf(tidCol);
        OrderedScan scan = db.scan("NVTX_EVENTS", where, pid, "start", "end DESC");
        Map<Long, ArrayDeque<long[]>> endsByThread = new HashMap<>();
        Map<Long, ArrayDeque<MarkerText>> openByThread = new HashMap<>();
        try (RowCursor rs = scan.open("SELECT " + pid + ", start, end, " + tidCol + ", " + textExpr(db) + ", "
                + db.col("NVTX_EVENTS", "eventType", "59") + " FROM NVTX_EVENTS WHERE " + where)) {
            while (rs.next()) {
                long start = rs.getLong(1);
                long endRaw = rs.getLong(2);
                scan.check(rs.getLong(0), start, endRaw);
                if (rs.getInt(6) == 34) continue; // a mark: no duration, not an op
                long tid = rs.getLong(3);
                boolean noEnd = endRaw == 0 && rs.isNull(2);
                String text = rs.getString(4);
                boolean registered = text == null && !rs.isNull(5);
                if (registered) text = db.string(rs.getLong(5));
                MarkerText m = MarkerText.of(text, registered);
                long end = noEnd ? profileEnd : Math.max(start, endRaw);
                ArrayDeque<long[]> ends = endsByThread.computeIfAbsent(tid, t -> new ArrayDeque<>());
                ArrayDeque<MarkerText> open = openByThread.computeIfAbsent(tid, t -> new ArrayDeque<>());
                while (!ends.isEmpty() && ends.peek()[0] < start) {
                    ends.pop();
                    open.pop();
                }
                if (keyNode != null && matchesKey(m, open.peek(), keyNode)) {
                    keyStopsByThread.computeIfAbsent(tid, k -> new ArrayList<>()).add(end);
                }
                ends.push(new long[] {end});
                open.push(m);
            }
        }
    }

    /** Replaces the {@link #UNCLOSED} stops by the profile's end. */
    void closeUnclosed(long profileEnd) {
        for (List<Long> stops : keyStopsByThread.values()) stops.replaceAll(s -> s == UNCLOSED ? profileEnd : s);
    }

    /** NVTX domains created by TensorRT (NvtxDomainCreate events name them). */
    void detectDomains(NsysDatabase db) throws SQLException {
        if (!db.has("NVTX_EVENTS") || !db.hasColumn("NVTX_EVENTS", "text") || !db.hasColumn("NVTX_EVENTS", "eventType")) return;
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT text FROM NVTX_EVENTS WHERE eventType = 75")) {
            while (rs.next()) {
                String d = rs.getString(1);
                if (d != null && d.toLowerCase(java.util.Locale.ROOT).contains("tensorrt")) tensorRtDomain = true;
            }
        }
    }

    /** Counts one NVTX event (called by the correlation pass for every row it streams). */
    void observe(MarkerText m, int eventType, boolean registered) {
        if (m.kind == MarkerText.Kind.MODEL_CONFIG) modelConfig = modelConfig(m.modelConfig);
        if (eventType == 34) return;
        ranges++;
        if (registered) textIdRanges++;
        if (m.kind == MarkerText.Kind.ATEN) aten++;
        if (m.kind == MarkerText.Kind.DLPROF_OP || m.kind == MarkerText.Kind.TRACE_MARKER) dlprofMarkers++;
        if (m.dali()) dali++;
        if (m.xla()) xla++;
    }

    /** Whether a range of that name may exist (cheap probe before a full key-node pass). */
    static boolean mayContain(NsysDatabase db, String key) throws SQLException {
        if (!db.has("NVTX_EVENTS") || !db.hasColumn("NVTX_EVENTS", "text")) return db.has("NVTX_EVENTS");
        String lit = "'%" + key.replace("'", "''").replace("%", "").replace("_", "_") + "%'";
        String sql = "SELECT EXISTS (SELECT 1 FROM NVTX_EVENTS WHERE text LIKE " + lit + ")";
        if (db.hasColumn("NVTX_EVENTS", "textId") && db.has("StringIds")) {
            sql += " OR EXISTS (SELECT 1 FROM StringIds WHERE value LIKE " + lit + ")";
        }
        return db.scalarLong("SELECT " + sql.substring("SELECT ".length()), 0) != 0;
    }

    private static boolean matchesKey(MarkerText m, MarkerText parent, String key) {
        if (key.equals(m.text) || key.equals(m.name)) return true;
        if (m.kind == MarkerText.Kind.DLPROF_OP && parent != null && parent.kind == MarkerText.Kind.TRACE_MARKER) {
            return key.equals(parent.name);
        }
        return false;
    }

    private static ModelConfig modelConfig(Map<?, ?> c) {
        Boolean benchDisabled = bool(c.get("cudnn_benchmark_disabled"));
        Boolean bench = bool(c.get("cudnn_benchmark"));
        if (bench == null && benchDisabled != null) bench = !benchDisabled;
        Boolean detect = bool(c.get("detect_anomaly"));
        Boolean setDetect = bool(c.get("autograd_set_detect_anomaly"));
        if (setDetect != null) detect = Boolean.TRUE.equals(detect) || setDetect;
        Object nw = c.get("num_workers");
        Integer workers = nw instanceof Number n ? n.intValue() : null;
        return new ModelConfig(workers, bool(c.get("pin_memory")), bench, detect, bool(c.get("gradcheck")),
                bool(c.get("gradgradcheck")), bool(c.get("autograd_profile")), bool(c.get("emit_nvtx")),
                bool(c.get("amp_enabled")));
    }

    private static Boolean bool(Object o) {
        if (o instanceof Boolean b) return b;
        if (o instanceof Number n) return n.longValue() != 0;
        if (o instanceof String s) return s.equalsIgnoreCase("true") || s.equals("1");
        return null;
    }

    String framework() {
        if (aten > 0 || dlprofMarkers > 0) return "pytorch";
        if (tensorRtDomain) return "tensorrt";
        if (xla > 0) return "tensorflow";
        return null;
    }

    Marker markers() {
        return new Marker(ranges, aten, dlprofMarkers, textIdRanges, xla, dali);
    }
}
