package dlproflint.extract.nsys;

import dlproflint.extract.common.LaunchSteps;
import dlproflint.extract.common.PriorityTimeline;
import dlproflint.extract.common.RowCursor;
import dlproflint.extract.common.StepGpuSweep;
import dlproflint.extract.common.StepTimeline;
import dlproflint.extract.kernels.KernelCatalogue;
import dlproflint.facts.CollectiveKind;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Sweeps in start order over tables of an export, each read once, in storage order when that is already by start
 * ({@link OrderedScan}). Two uses:
 * <ul>
 *   <li>{@link #host}: what the host did in each step's CPU period - DataLoader NVTX ranges, file I/O calls, CPU
 *       work (NVTX ranges and CUDA API calls of every thread) - each instant to the highest of them, DLProf's priority
 *       ({@link PriorityTimeline}). It reads the calls' times the correlation pass kept ({@link Tapes#callTimes}) and
 *       runs beside the GPU sweep; the measurement layer ({@link StepTimeline}) gives each step's GPU idle time to
 *       these categories.</li>
 *   <li>{@link #gpu}: every GPU operation over the whole profile, each with the step that launched it
 *       ({@link LaunchSteps}, from its correlation id): the GPU side of every step ({@link StepGpuSweep}), the gaps
 *       and busy bins of the {@code nsys} pack ({@link GpuBusy}), which need the spans the correlation pass measures,
 *       and the GPU idle time host-blocking calls caused ({@link NsysHostSyncs}).</li>
 * </ul>
 */
final class TimelinePass {
    private final NsysDatabase db;
    /** NVTX_EVENTS in order (host mode) */
    private final NvtxSpool nvtx;
    /**
     * The rows the correlation pass kept (null: none): the kernels for the GPU sweep, the API calls' times for the
     * host's; each used where {@link RowTape#complete}
     */
    private final Tapes tapes;
    private final long profileEnd;
    /** host mode */
    private final PriorityTimeline host;
    /** GPU mode */
    private final GpuBusy busy;
    private final StepGpuSweep steps;
    private final LaunchSteps launches;
    private final NsysHostSyncs syncs;
    private final boolean gpuPid;
    private final Map<Long, Integer> classByName = new HashMap<>();
    private final Map<Long, Boolean> tcByName = new HashMap<>();

    private TimelinePass(NsysDatabase db, NvtxSpool nvtx, Tapes tapes, long profileEnd,
                         PriorityTimeline host, GpuBusy busy, StepGpuSweep steps, LaunchSteps launches, NsysHostSyncs syncs) {
        this.db = db;
        this.tapes = tapes;
        this.nvtx = nvtx;
        this.profileEnd = profileEnd;
        this.host = host;
        this.busy = busy;
        this.steps = steps;
        this.launches = launches;
        this.syncs = syncs;
        boolean pid = true;
        for (String t : NsysDatabase.GPU_TABLES) {
            if (db.has(t) && !db.hasColumn(t, "globalPid")) pid = false;
        }
        this.gpuPid = pid;
    }

    /**
     * The host's time in each window {@code [bounds[k], bounds[k + 1])} by category
     * ({@link StepTimeline#HOST_DATALOADER}, {@link StepTimeline#HOST_IO}, {@link StepTimeline#HOST_CPU}).
     */
    static long[][] host(NsysDatabase db, NvtxSpool nvtx, Tapes tapes, long[] bounds, long profileEnd)
            throws SQLException {
        PriorityTimeline t = new PriorityTimeline(StepTimeline.HOST_CATEGORIES, bounds[0], bounds[bounds.length - 1])
                .perWindow(bounds);
        new TimelinePass(db, nvtx, tapes, profileEnd, t, null, null, null, null).run();
        t.finish();
        return t.windows();
    }

    /**
     * Feeds every GPU operation, in start order, with its launch step, to {@code steps}, to {@code busy} and to
     * {@code syncs} (null when there are no host-blocking calls to measure). The kernel rows come from
     * {@code tapes} where the correlation pass kept them all in storage order, else from the table, read here (the
     * connection beside runs the host sweep meanwhile).
     */
    static void gpu(NsysDatabase db, Tapes tapes, StepGpuSweep steps, LaunchSteps launches,
                    GpuBusy busy, NsysHostSyncs syncs) throws SQLException {
        new TimelinePass(db, null, tapes, 0, null, busy, steps, launches, syncs).run();
    }

    private void run() throws SQLException {
        List<Source> sources = new ArrayList<>();
        try {
            if (host == null) {
                for (int k = 0; k < NsysDatabase.GPU_TABLES.size(); k++) {
                    String table = NsysDatabase.GPU_TABLES.get(k);
                    if (db.has(table) && db.hasColumn(table, "start")) sources.add(new Gpu(k, table));
                }
            } else {
                if (db.has("NVTX_EVENTS") && db.hasColumn("NVTX_EVENTS", "start")) sources.add(new Nvtx(nvtx));
                if (db.has("CUPTI_ACTIVITY_KIND_RUNTIME")) {
                    sources.add(new Cpu("CUPTI_ACTIVITY_KIND_RUNTIME", null, StepTimeline.HOST_CPU,
                            tapes == null ? null : tapes.callTimes));
                }
                String io = ioFilter();
                if (io != null) sources.add(new Cpu("OSRT_API", "nameId IN (" + io + ")", StepTimeline.HOST_IO, null));
            }
            sweep(sources);
        } finally {
            for (Source s : sources) s.close();
        }
    }

    /** Merges the sources by start; the host sweep stops reading where its windows end. */
    private void sweep(List<Source> sources) throws SQLException {
        List<Source> live = new ArrayList<>();
        for (Source s : sources) if (s.read()) live.add(s);
        while (!live.isEmpty()) {
            if (Thread.interrupted()) throw new SQLException("interrupted");
            Source first = live.get(0);
            for (int i = 1; i < live.size(); i++) if (live.get(i).start < first.start) first = live.get(i);
            first.deliver();
            if (!first.read()) live.remove(first);
            if (host != null && !host.accepting()) {
                for (Source s : live) s.restStartsLater();
                return;
            }
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
        public void close() throws SQLException {
            rs.close();
        }
    }

    /** Kernels, memcpys or memsets: their launch step's GPU side, the gaps of their (process, device), the syncs. */
    private final class Gpu extends Source {
        private final boolean kernel;
        private final boolean busyTable;
        private long end;
        private boolean noEnd;
        private long lastName = Long.MIN_VALUE;
        private int lastClass;
        private boolean lastTc;

        Gpu(int kind, String table) throws SQLException {
            this.kernel = kind == 0;
            // the gaps count operations of tables that say where and when they ran, as nsys analyze does
            this.busyTable = db.hasColumn(table, "deviceId") && db.hasColumn(table, "end");
            // the table's process column as it is (0 without one): the busy spans' process and the launch's are
            // computed from it here
            String name = kernel ? kernelNameColumn(db) : "0";
            String select = "SELECT start, end, " + db.col(table, "deviceId", "0") + ", " + name + ", "
                    + db.col(table, "globalPid", "0") + ", "
                    + (kernel ? db.col(table, "demangledName", db.col(table, "shortName", "0")) : "0") + ", "
                    + db.col(table, "correlationId", "NULL") + " FROM " + table;
            this.scan = db.scan(table, null, "start");
            // the rows the correlation pass read (its name column the short name, as here), in the same storage order:
            // the same start-order check on them
            boolean kept = kernel && tapes != null && tapes.kernels.complete() && scan.storageOrder()
                    && db.hasColumn(table, "shortName");
            this.rs = kept ? tapes.kernels.cursor(new KernelDetails(db, table, db.col(table, "demangledName",
                    db.col(table, "shortName", "0")) + ", 0, 0, 0, 0, 0, 0")) : scan.open(select);
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
            long corr = rs.getLong(6);
            long pid = NsysDatabase.pidOf(rs.getLong(4));
            int step = launches.stepOf(gpuPid ? pid : 0, corr, !(corr == 0 && rs.isNull(6)), start);
            int device = rs.getInt(2);
            long e = Math.max(start, end);
            if (kernel) {
                classify(rs.isNull(3) ? Long.MIN_VALUE : rs.getLong(3));
                steps.gpu(step, device, start, e, lastClass, lastTc, -1);
            } else {
                steps.gpu(step, device, start, e, StepGpuSweep.MEMORY, false, -1);
            }
            if (syncs != null) syncs.gpu(start, end);
            if (noEnd) return; // no interval: the gaps do not count it
            if (busyTable && !(start == 0 && rs.isNull(0))) busy.add(pid, device, start, end, step);
        }

        /**
         * A kernel's class ({@link StepGpuSweep#COMPUTE} or a collective's ordinal) and tensor-core use, once per name
         * id: the collective by {@link CollectiveKind}, tensor cores by the kernel catalogue (the long name read then).
         */
        private void classify(long nameId) throws SQLException {
            if (nameId == lastName) return;
            lastName = nameId;
            if (nameId == Long.MIN_VALUE) {
                lastClass = StepGpuSweep.COMPUTE;
                lastTc = false;
                return;
            }
            Integer c = classByName.get(nameId);
            if (c == null) {
                String shortName = db.string(nameId);
                CollectiveKind k = CollectiveKind.ofKernel(shortName);
                c = k == null ? StepGpuSweep.COMPUTE : k.ordinal();
                classByName.put(nameId, c);
                long longId = rs.getLong(5);
                tcByName.put(nameId, KernelCatalogue.builtin().classify(shortName, longId == nameId ? null
                        : db.string(longId)).tensorCores());
            }
            lastClass = c;
            lastTc = tcByName.get(nameId);
        }
    }

    /** The kernel name column that tells a collective kernel from a compute one (NULL when the export has none). */
    static String kernelNameColumn(NsysDatabase db) {
        String k = "CUPTI_ACTIVITY_KIND_KERNEL";
        return db.hasColumn(k, "shortName") ? "shortName" : db.hasColumn(k, "demangledName") ? "demangledName" : "NULL";
    }

    /**
     * NVTX push/pop and start/end ranges: CPU time, or data-loader time by their text, as the evidence pass classified
     * it ({@link NvtxSpool}: the table is not read again, its text not decoded again).
     */
    private final class Nvtx extends Source {
        private final NvtxSpool.Reader in;
        private NvtxSpool.Row row;

        Nvtx(NvtxSpool spool) {
            this.in = spool.byStart();
        }

        @Override
        boolean read() throws SQLException {
            while ((row = in.next()) != null) {
                if (row.isRange()) {
                    start = row.start;
                    return true;
                }
            }
            return false;
        }

        @Override
        void restStartsLater() {
            // the spool is in start order: nothing to check
        }

        @Override
        void deliver() {
            int category = (row.category() & MarkerText.DATALOADER) != 0 ? StepTimeline.HOST_DATALOADER : StepTimeline.HOST_CPU;
            host.offer(start, row.noEnd ? profileEnd : row.end, category);
        }

        @Override
        public void close() {
            in.close();
        }
    }

    /** CUDA API calls (CPU) or file I/O calls (IO). */
    private final class Cpu extends Source {
        private final int category;

        /** @param kept the table's start and end as a read of the whole table kept them (null: none) */
        Cpu(String table, String where, int category, RowTape kept) throws SQLException {
            this.category = category;
            this.scan = db.scan(table, where, "start");
            // the times as the correlation pass read them, in the same storage order: the same start-order check on them
            this.rs = kept != null && kept.complete() && scan.storageOrder() ? kept.cursor()
                    : scan.open("SELECT start, end FROM " + table + (where == null ? "" : " WHERE " + where));
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
            host.offer(start, rs.getLong(1), category);
        }
    }
}
