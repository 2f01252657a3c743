package dlproflint.extract.nsys;

import dlproflint.extract.common.PriorityTimeline;
import dlproflint.extract.common.RowCursor;
import dlproflint.extract.common.TensorCores;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One sweep in start order over the GPU activity tables, NVTX ranges, CUDA API calls and file I/O calls
 * that feeds DLProf's flattened time breakdown of every device over the aggregation window (tensor-core
 * kernels &gt; other kernels &gt; memcpy/memset &gt; dataloader ranges &gt; file I/O calls &gt; CPU (NVTX
 * ranges and CUDA API calls) &gt; other, one {@link PriorityTimeline} per device) and, over the whole
 * profile, the GPU gaps and busy bins of the {@code nsys} pack ({@link GpuBusy}). Each table is read once,
 * in storage order when that is already by start ({@link OrderedScan}); the CPU-side tables only as far as
 * the window reaches.
 */
final class TimelinePass {
    static final int TC = 0, KERNEL = 1, MEMORY = 2, DATALOADER = 3, IO = 4, CPU = 5, CATEGORIES = 6;
    /** masks: kernels (GPU utilization), any GPU work (busy time) */
    static final int KERNEL_MASK = 0b11, GPU_MASK = 0b111;
    private static final String[] GPU_TABLES = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
            "CUPTI_ACTIVITY_KIND_MEMSET"};

    private final NsysDatabase db;
    private final long profileEnd;
    private final GpuBusy busy;
    private final PriorityTimeline[] timelines;
    private final Map<Integer, PriorityTimeline> byDevice = new HashMap<>();
    private final boolean perDevice;
    private final Map<Long, Boolean> tcByName = new HashMap<>();

    /**
     * @param devices the devices to break down, in order; none = one breakdown of the CPU side only
     * @param busy    receives every GPU operation, or null when gaps and bins are not wanted
     */
    TimelinePass(NsysDatabase db, List<Integer> devices, long windowStart, long windowEnd, long profileEnd, GpuBusy busy) {
        this.db = db;
        this.profileEnd = profileEnd;
        this.busy = busy;
        this.perDevice = !devices.isEmpty();
        this.timelines = new PriorityTimeline[Math.max(1, devices.size())];
        for (int i = 0; i < timelines.length; i++) {
            timelines[i] = new PriorityTimeline(CATEGORIES, windowStart, windowEnd, KERNEL_MASK, GPU_MASK);
            if (perDevice) byDevice.put(devices.get(i), timelines[i]);
        }
    }

    /** The breakdown of each device (in the order given; one result without devices). */
    List<PriorityTimeline.Result> run() throws SQLException {
        List<Source> sources = new ArrayList<>();
        try {
            if (perDevice || busy != null) {
                for (int k = 0; k < GPU_TABLES.length; k++) {
                    if (db.has(GPU_TABLES[k]) && db.hasColumn(GPU_TABLES[k], "start")) sources.add(new Gpu(k, GPU_TABLES[k]));
                }
            }
            if (db.has("NVTX_EVENTS") && db.hasColumn("NVTX_EVENTS", "start")) sources.add(new Nvtx());
            if (db.has("CUPTI_ACTIVITY_KIND_RUNTIME")) {
                sources.add(new Cpu("CUPTI_ACTIVITY_KIND_RUNTIME", null, CPU));
            }
            String io = ioFilter();
            if (io != null) sources.add(new Cpu("OSRT_API", "nameId IN (" + io + ")", IO));
            sweep(sources);
        } finally {
            for (Source s : sources) s.close();
        }
        List<PriorityTimeline.Result> out = new ArrayList<>();
        for (PriorityTimeline t : timelines) out.add(t.finish());
        return out;
    }

    /** Merges the sources by start (on equal starts, the earlier source first). */
    private void sweep(List<Source> sources) throws SQLException {
        List<Source> live = new ArrayList<>();
        for (Source s : sources) if (s.read()) live.add(s);
        boolean open = true;
        while (!live.isEmpty()) {
            Source first = live.get(0);
            for (int i = 1; i < live.size(); i++) if (live.get(i).start < first.start) first = live.get(i);
            first.deliver();
            if (!first.read()) live.remove(first);
            if (open && !breakdownOpen()) {
                // the window is swept: only the GPU operations still matter, and only for the gaps
                open = false;
                for (Source s : live) if (busy == null || !(s instanceof Gpu)) s.restStartsLater();
                live.removeIf(s -> busy == null || !(s instanceof Gpu));
            }
        }
    }

    private boolean breakdownOpen() {
        for (PriorityTimeline t : timelines) if (t.accepting()) return true;
        return false;
    }

    private void offerAll(long start, long end, int category) {
        for (PriorityTimeline t : timelines) t.offer(start, end, category);
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

    /** A table streamed by start; {@link #start} is the current row's. */
    private abstract static class Source implements AutoCloseable {
        long start;
        OrderedScan scan;
        RowCursor rs;

        abstract boolean read() throws SQLException;

        /** Before the rest of the table is left unread: it must hold nothing that starts before the current row. */
        void restStartsLater() throws SQLException {
            scan.checkRest(start);
        }

        abstract void deliver() throws SQLException;

        @Override
        public abstract void close() throws SQLException;
    }

    /** Kernels, memcpys or memsets: their device's breakdown, and the gaps of their (process, device). */
    private final class Gpu extends Source {
        private final boolean kernel;
        private final boolean busyTable;
        private long end;
        private boolean noEnd;
        private long lastName = Long.MIN_VALUE;
        private int lastCategory;

        Gpu(int kind, String table) throws SQLException {
            this.kernel = kind == 0;
            // the gaps count operations of tables that say where and when they ran, as nsys analyze does
            this.busyTable = busy != null && db.hasColumn(table, "deviceId") && db.hasColumn(table, "end");
            String pid = db.hasColumn(table, "globalPid") ? NsysDatabase.pidOf("globalPid") : "0";
            this.scan = db.scan(table, null, "start");
            this.rs = scan.open("SELECT start, end, " + db.col(table, "deviceId", "0") + ", "
                    + (kernel ? db.col(table, "shortName", "0") : "0") + ", " + pid + " FROM " + table);
        }

        @Override
        boolean read() throws SQLException {
            if (!rs.next()) return false;
            start = rs.getLong(0);
            scan.check(start);
            end = rs.getLong(1);
            noEnd = end == 0 && rs.isNull(1);
            return true;
        }

        @Override
        void deliver() throws SQLException {
            if (noEnd) return; // no interval: neither the breakdown nor the gaps count it
            int device = rs.getInt(2);
            if (perDevice) {
                PriorityTimeline t = byDevice.get(device);
                if (t != null && t.accepting()) t.offer(start, end, kernel ? kernelCategory(rs.getLong(3)) : MEMORY);
            }
            if (busyTable && !(start == 0 && rs.isNull(0))) busy.add(rs.getLong(4), device, start, end);
        }

        private int kernelCategory(long nameId) throws SQLException {
            if (nameId != lastName) {
                Boolean tc = tcByName.get(nameId);
                if (tc == null) {
                    tc = TensorCores.kernelUsesTensorCores(db.string(nameId));
                    tcByName.put(nameId, tc);
                }
                lastName = nameId;
                lastCategory = tc ? TC : KERNEL;
            }
            return lastCategory;
        }

        @Override
        public void close() throws SQLException {
            rs.close();
        }
    }

    /** NVTX push/pop and start/end ranges: CPU time, or dataloader time by their text. */
    private final class Nvtx extends Source {
        private final Map<Long, Integer> categoryById = new HashMap<>();

        Nvtx() throws SQLException {
            String where = db.col("NVTX_EVENTS", "eventType", "59") + " IN (" + NvtxScan.RANGE_TYPES + ")";
            this.scan = db.scan("NVTX_EVENTS", where, "start");
            this.rs = scan.open("SELECT start, COALESCE(end, " + profileEnd + "), " + NvtxScan.textExpr(db)
                    + " FROM NVTX_EVENTS WHERE " + where);
        }

        @Override
        boolean read() throws SQLException {
            if (!rs.next()) return false;
            start = rs.getLong(0);
            scan.check(start);
            return true;
        }

        @Override
        void deliver() throws SQLException {
            String text = rs.getString(2);
            int category;
            if (text != null) {
                category = category(text);
            } else if (!rs.isNull(3)) {
                long id = rs.getLong(3);
                Integer c = categoryById.get(id);
                if (c == null) {
                    c = category(db.string(id));
                    categoryById.put(id, c);
                }
                category = c;
            } else {
                category = CPU;
            }
            offerAll(start, rs.getLong(1), category);
        }

        private int category(String text) {
            if (text == null) return CPU;
            String l = text.toLowerCase(Locale.ROOT);
            return l.contains("dataloader") || l.contains("_next_data") || l.contains("data_loader") ? DATALOADER : CPU;
        }

        @Override
        public void close() throws SQLException {
            rs.close();
        }
    }

    /** CUDA API calls (CPU) or file I/O calls (IO). */
    private final class Cpu extends Source {
        private final int category;

        Cpu(String table, String where, int category) throws SQLException {
            this.category = category;
            this.scan = db.scan(table, where, "start");
            this.rs = scan.open("SELECT start, end FROM " + table + (where == null ? "" : " WHERE " + where));
        }

        @Override
        boolean read() throws SQLException {
            while (rs.next()) {
                start = rs.getLong(0);
                scan.check(start);
                if (rs.getLong(1) != 0 || !rs.isNull(1)) return true; // a call without an end is skipped
            }
            return false;
        }

        @Override
        void deliver() throws SQLException {
            offerAll(start, rs.getLong(1), category);
        }

        @Override
        public void close() throws SQLException {
            rs.close();
        }
    }
}
