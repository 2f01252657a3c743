package dlproflint.extract.nsys;

import dlproflint.extract.common.IntervalSource;
import dlproflint.extract.common.PriorityTimeline;
import dlproflint.extract.kernels.KernelCatalogue;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * DLProf's flattened time breakdown for one device over the aggregation window, from start-ordered streams:
 * tensor-core kernels &gt; other kernels &gt; memcpy/memset &gt; dataloader ranges &gt; file I/O calls &gt;
 * CPU (NVTX ranges and CUDA API calls) &gt; other.
 */
final class TimelineSweep {
    static final int TC = 0, KERNEL = 1, MEMORY = 2, DATALOADER = 3, IO = 4, CPU = 5, CATEGORIES = 6;
    /** masks: kernels (GPU utilization), any GPU work (busy time) */
    static final int KERNEL_MASK = 0b11, GPU_MASK = 0b111;

    private final NsysDatabase db;
    private final Map<Long, Boolean> tcByName = new HashMap<>();
    private final Map<List<Long>, PriorityTimeline.Result> idleRuns = new HashMap<>();
    private Set<Integer> devicesWithWork;

    TimelineSweep(NsysDatabase db) {
        this.db = db;
    }

    /**
     * The sweep for one device. A device that ran nothing (no kernel, copy or memset row at all) sees only
     * the CPU-side sources, the same for every such device: that sweep is made once and shared, so an
     * export listing thousands of idle GPUs costs one sweep rather than one per GPU over every CPU event.
     */
    PriorityTimeline.Result run(Integer device, long windowStart, long windowEnd, long profileEnd) throws Exception {
        if (device != null && !devicesWithWork().contains(device)) {
            List<Long> key = List.of(windowStart, windowEnd, profileEnd);
            PriorityTimeline.Result r = idleRuns.get(key);
            if (r == null) {
                r = sweep(device, windowStart, windowEnd, profileEnd);
                idleRuns.put(key, r);
            }
            return r;
        }
        return sweep(device, windowStart, windowEnd, profileEnd);
    }

    /** Devices with at least one kernel, memcpy or memset row. */
    private Set<Integer> devicesWithWork() throws SQLException {
        if (devicesWithWork != null) return devicesWithWork;
        Set<Integer> out = new HashSet<>();
        for (String t : List.of("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET")) {
            if (!db.has(t)) continue;
            try (Statement st = db.connection().createStatement();
                 ResultSet rs = st.executeQuery("SELECT DISTINCT " + db.col(t, "deviceId", "0") + " FROM " + t)) {
                while (rs.next()) out.add(rs.getInt(1));
            }
        }
        devicesWithWork = out;
        return out;
    }

    private PriorityTimeline.Result sweep(Integer device, long windowStart, long windowEnd, long profileEnd) throws Exception {
        List<IntervalSource> sources = new ArrayList<>();
        List<Statement> statements = new ArrayList<>();
        try {
            String k = "CUPTI_ACTIVITY_KIND_KERNEL";
            if (device != null && db.has(k)) {
                Statement st = db.connection().createStatement();
                statements.add(st);
                String where = db.col(k, "deviceId", "0") + " = " + device;
                ResultSet rs = st.executeQuery("SELECT start, end, " + db.col(k, "shortName", "0") + ", "
                        + db.col(k, "demangledName", db.col(k, "shortName", "0")) + " FROM " + k
                        + " WHERE " + where + db.orderBy(k, where, "start"));
                sources.add(new Rows(rs) {
                    @Override
                    int categoryOf(ResultSet r) throws SQLException {
                        long id = r.getLong(3);
                        Boolean tc = tcByName.get(id);
                        if (tc == null) {
                            long longId = r.getLong(4);
                            tc = KernelCatalogue.builtin().classify(db.string(id), longId == id ? null : db.string(longId))
                                    .tensorCores();
                            tcByName.put(id, tc);
                        }
                        return tc ? TC : KERNEL;
                    }
                });
            }
            // each table is its own start-ordered source: the sweep merges them, so nothing is re-sorted
            for (String t : List.of("CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET")) {
                if (device != null && db.has(t)) {
                    String where = db.col(t, "deviceId", "0") + " = " + device;
                    Statement st = db.connection().createStatement();
                    statements.add(st);
                    sources.add(new Rows(st.executeQuery("SELECT start, end FROM " + t + " WHERE " + where
                            + db.orderBy(t, where, "start")), MEMORY));
                }
            }
            if (db.has("NVTX_EVENTS") && db.hasColumn("NVTX_EVENTS", "start")) {
                String where = db.col("NVTX_EVENTS", "eventType", "59") + " IN (" + NvtxScan.RANGE_TYPES + ")";
                Statement st = db.connection().createStatement();
                statements.add(st);
                sources.add(new Rows(st.executeQuery("SELECT start, COALESCE(end, " + profileEnd + ") AS end, "
                        + NvtxScan.textExpr(db) + " FROM NVTX_EVENTS WHERE " + where
                        + db.orderBy("NVTX_EVENTS", where, "start")), -1) {
                    @Override
                    int categoryOf(ResultSet r) throws SQLException {
                        String text = r.getString(3);
                        long textId = r.getLong(4);
                        if (text == null && !r.wasNull()) text = db.string(textId);
                        if (text == null) return CPU;
                        String l = text.toLowerCase(java.util.Locale.ROOT);
                        return MarkerText.dataLoaderText(l) ? DATALOADER : CPU;
                    }
                });
            }
            if (db.has("CUPTI_ACTIVITY_KIND_RUNTIME")) {
                Statement st = db.connection().createStatement();
                statements.add(st);
                sources.add(new Rows(st.executeQuery("SELECT start, end FROM CUPTI_ACTIVITY_KIND_RUNTIME"
                        + db.orderBy("CUPTI_ACTIVITY_KIND_RUNTIME", null, "start")), CPU));
            }
            String io = ioFilter();
            if (io != null) {
                Statement st = db.connection().createStatement();
                statements.add(st);
                String where = "nameId IN (" + io + ")";
                sources.add(new Rows(st.executeQuery("SELECT start, end FROM OSRT_API WHERE " + where
                        + db.orderBy("OSRT_API", where, "start")), IO));
            }
            return new PriorityTimeline(CATEGORIES, windowStart, windowEnd, KERNEL_MASK, GPU_MASK).run(sources);
        } finally {
            for (Statement s : statements) s.close();
        }
    }

    /** DLProf's I/O bucket: the CPU doing fread/fwrite (OS runtime trace). */
    private String ioFilter() throws SQLException {
        if (!db.has("OSRT_API") || !db.hasColumn("OSRT_API", "nameId") || !db.has("StringIds")) return null;
        List<String> ids = new ArrayList<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT id FROM StringIds WHERE value IN ('fread', 'fwrite', 'fread_unlocked',"
                     + " 'fwrite_unlocked', 'fread64', 'fwrite64')")) {
            while (rs.next()) ids.add(Long.toString(rs.getLong(1)));
        }
        return ids.isEmpty() ? null : String.join(",", ids);
    }

    /** A result set of (start, end, ...) rows sorted by start. */
    private static class Rows implements IntervalSource {
        private final ResultSet rs;
        private final int fixed;
        private long start;
        private long end;
        private int category;

        Rows(ResultSet rs) {
            this(rs, -1);
        }

        Rows(ResultSet rs, int fixed) {
            this.rs = rs;
            this.fixed = fixed;
        }

        int categoryOf(ResultSet r) throws SQLException {
            return fixed;
        }

        @Override
        public boolean next() throws Exception {
            while (rs.next()) {
                start = rs.getLong(1);
                long e = rs.getLong(2);
                if (rs.wasNull()) continue;
                end = Math.max(start, e);
                category = fixed >= 0 ? fixed : categoryOf(rs);
                return true;
            }
            return false;
        }

        @Override
        public long start() {
            return start;
        }

        @Override
        public long end() {
            return end;
        }

        @Override
        public int category() {
            return category;
        }
    }
}
