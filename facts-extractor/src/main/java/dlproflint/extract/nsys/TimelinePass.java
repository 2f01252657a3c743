package dlproflint.extract.nsys;

import dlproflint.extract.common.PriorityTimeline;
import dlproflint.extract.common.RowCursor;
import dlproflint.extract.kernels.KernelCatalogue;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Sweeps in start order over the GPU activity tables, NVTX ranges, CUDA API calls and file I/O calls, each
 * table read once, in storage order when that is already by start ({@link OrderedScan}). Two uses:
 * <ul>
 *   <li>{@link #breakdown}: DLProf's flattened time breakdown of every device over the aggregation window
 *       (tensor-core kernels &gt; other kernels &gt; memcpy/memset &gt; dataloader ranges &gt; file I/O calls
 *       &gt; CPU (NVTX ranges and CUDA API calls) &gt; other), one {@link PriorityTimeline} per device, reading
 *       only as far as the window reaches. It needs neither the devices nor anything of the correlation
 *       pass, so it runs beside it: a device's timeline starts as a copy of the CPU-side timeline when its
 *       first GPU operation arrives, and a device without any keeps the CPU-side breakdown.</li>
 *   <li>{@link #busy}: every GPU operation over the whole profile for the gaps and busy bins of the
 *       {@code nsys} pack ({@link GpuBusy}), which need the spans the correlation pass measures, and for the
 *       per-step facts of a job ({@link NsysSteps}) and the GPU idle time host-blocking calls caused
 *       ({@link NsysHostSyncs}).</li>
 * </ul>
 */
final class TimelinePass {
    static final int TC = 0, KERNEL = 1, MEMORY = 2, DATALOADER = 3, IO = 4, CPU = 5, CATEGORIES = 6;
    /** masks: kernels (GPU utilization), any GPU work (busy time) */
    static final int KERNEL_MASK = 0b11, GPU_MASK = 0b111;

    private final NsysDatabase db;
    private final long profileEnd;
    /** breakdown: the CPU-side timeline, and one per device that ran something */
    private final PriorityTimeline cpuOnly;
    private final Map<Integer, PriorityTimeline> byDevice = new HashMap<>();
    private final GpuBusy busy;
    private final NsysSteps steps;
    private final NsysHostSyncs syncs;
    private final Map<Long, Boolean> tcByName = new HashMap<>();

    private TimelinePass(NsysDatabase db, PriorityTimeline cpuOnly, long profileEnd, GpuBusy busy, NsysSteps steps,
                         NsysHostSyncs syncs) {
        this.db = db;
        this.cpuOnly = cpuOnly;
        this.profileEnd = profileEnd;
        this.busy = busy;
        this.steps = steps;
        this.syncs = syncs;
    }

    /** The breakdown over {@code [windowStart, windowEnd)}; read the devices' results with {@link #result}. */
    static TimelinePass breakdown(NsysDatabase db, long windowStart, long windowEnd, long profileEnd) throws SQLException {
        TimelinePass t = new TimelinePass(db, new PriorityTimeline(CATEGORIES, windowStart, windowEnd, KERNEL_MASK, GPU_MASK),
                profileEnd, null, null, null);
        t.run();
        return t;
    }

    /**
     * Feeds every GPU operation, in start order, to {@code busy}, to {@code steps} and to {@code syncs} (null when
     * there are no host-blocking calls to measure).
     */
    static void busy(NsysDatabase db, GpuBusy busy, NsysSteps steps, NsysHostSyncs syncs) throws SQLException {
        new TimelinePass(db, null, 0, busy, steps, syncs).run();
    }

    /** A device's breakdown; null for the CPU side alone (no devices). */
    PriorityTimeline.Result result(Integer device) {
        PriorityTimeline t = device == null ? null : byDevice.get(device);
        return (t == null ? cpuOnly : t).finish();
    }

    private void run() throws SQLException {
        List<Source> sources = new ArrayList<>();
        try {
            for (int k = 0; k < NsysDatabase.GPU_TABLES.size(); k++) {
                String table = NsysDatabase.GPU_TABLES.get(k);
                if (db.has(table) && db.hasColumn(table, "start")) sources.add(new Gpu(k, table));
            }
            if (cpuOnly != null) {
                if (db.has("NVTX_EVENTS") && db.hasColumn("NVTX_EVENTS", "start")) sources.add(new Nvtx());
                if (db.has("CUPTI_ACTIVITY_KIND_RUNTIME")) sources.add(new Cpu("CUPTI_ACTIVITY_KIND_RUNTIME", null, CPU));
                String io = ioFilter();
                if (io != null) sources.add(new Cpu("OSRT_API", "nameId IN (" + io + ")", IO));
            }
            sweep(sources);
        } finally {
            for (Source s : sources) s.close();
        }
    }

    /** Merges the sources by start; the breakdown stops reading where its window ends. */
    private void sweep(List<Source> sources) throws SQLException {
        List<Source> live = new ArrayList<>();
        for (Source s : sources) if (s.read()) live.add(s);
        while (!live.isEmpty()) {
            if (Thread.interrupted()) throw new SQLException("interrupted");
            Source first = live.get(0);
            for (int i = 1; i < live.size(); i++) if (live.get(i).start < first.start) first = live.get(i);
            first.deliver();
            if (!first.read()) live.remove(first);
            if (busy == null && !cpuOnly.accepting()) {
                // every timeline is past the window (a device's closes no later than the CPU side's)
                for (Source s : live) s.restStartsLater();
                return;
            }
        }
    }

    private void offerAll(long start, long end, int category) {
        cpuOnly.offer(start, end, category);
        for (PriorityTimeline t : byDevice.values()) t.offer(start, end, category);
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

        /** Moves to the next row (false at the end). */
        abstract boolean read() throws SQLException;

        /** The next row of the query, its start (column 0) checked against the storage order. */
        boolean nextRow() throws SQLException {
            if (!rs.next()) return false;
            start = rs.getLong(0);
            scan.check(start);
            return true;
        }

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
            String pid = busy != null && db.hasColumn(table, "globalPid") ? NsysDatabase.pidOf("globalPid") : "0";
            this.scan = db.scan(table, null, "start");
            boolean names = kernel && busy == null;
            // the GPU sweep reads the kernel name that classifies collectives for the steps
            String name = names ? db.col(table, "shortName", "0") : kernel ? NsysSteps.kernelNameColumn(db) : "0";
            this.rs = scan.open("SELECT start, end, " + db.col(table, "deviceId", "0") + ", " + name + ", " + pid + ", "
                    + (names ? db.col(table, "demangledName", db.col(table, "shortName", "0")) : "0") + " FROM " + table);
        }

        @Override
        boolean read() throws SQLException {
            if (!nextRow()) return false;
            end = rs.getLong(1);
            noEnd = end == 0 && rs.isNull(1);
            return true;
        }

        @Override
        void deliver() throws SQLException {
            if (steps != null) {
                if (!kernel) steps.memory(start, end);
                else steps.kernel(start, end, !rs.isNull(3), rs.getLong(3));
            }
            if (syncs != null) syncs.gpu(start, end);
            if (noEnd) return; // no interval: neither the breakdown nor the gaps count it
            int device = rs.getInt(2);
            if (busy == null) {
                PriorityTimeline t = byDevice.get(device);
                if (t == null) {
                    dlproflint.extract.common.DeviceLimit.admit(byDevice.size());
                    t = cpuOnly.copy();
                    byDevice.put(device, t);
                }
                if (t.accepting()) t.offer(start, end, kernel ? kernelCategory(rs.getLong(3)) : MEMORY);
            } else if (busyTable && !(start == 0 && rs.isNull(0))) {
                busy.add(rs.getLong(4), device, start, end);
            }
        }

        /** Tensor-core or other kernel, by the kernel catalogue, once per short-name id (the long name read then). */
        private int kernelCategory(long nameId) throws SQLException {
            if (nameId != lastName) {
                Boolean tc = tcByName.get(nameId);
                if (tc == null) {
                    long longId = rs.getLong(5);
                    tc = KernelCatalogue.builtin().classify(db.string(nameId), longId == nameId ? null : db.string(longId))
                            .tensorCores();
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
            return nextRow();
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
            return MarkerText.dataLoaderText(l) ? DATALOADER : CPU;
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
            while (nextRow()) {
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
