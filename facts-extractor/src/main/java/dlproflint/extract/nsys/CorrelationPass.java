package dlproflint.extract.nsys;

import dlproflint.facts.InstanceSink;
import dlproflint.extract.common.ApiNames;
import dlproflint.extract.common.IterationKernelTable;
import dlproflint.extract.common.Iterations;
import dlproflint.extract.common.KernelTable;
import dlproflint.extract.common.LaunchSteps;
import dlproflint.extract.common.LongIntMap;
import dlproflint.extract.common.MemoryKinds;
import dlproflint.extract.common.OpInstance;
import dlproflint.extract.common.OpTable;
import dlproflint.extract.common.RowCursor;
import dlproflint.extract.common.Segments;
import dlproflint.extract.common.SiteVotes;
import dlproflint.extract.common.StreamStats;
import dlproflint.extract.common.TensorCores;
import dlproflint.extract.kernels.KernelCatalogue;
import dlproflint.extract.kernels.KernelClass;
import dlproflint.extract.kernels.KernelMix;
import dlproflint.facts.Direction;
import dlproflint.facts.KernelInstance;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The main pass: NVTX ranges → CUDA API calls → GPU work, as three ORDER BY streams merged per process.
 * <ul>
 *   <li>NVTX ranges ordered by (pid, start) feed per-thread stacks of open ranges (an interval sweep);</li>
 *   <li>API calls ordered by (pid, correlationId) - per thread that is call order - find their op on their
 *       thread's stack (innermost range containing the call), and their step (the CPU window the call started
 *       in: every GPU activity belongs to the step that launched it, {@link LaunchSteps});</li>
 *   <li>kernels ∪ memcpys ∪ memsets ordered by (pid, correlationId) are sort-merged onto the API calls.</li>
 * </ul>
 * Op instances live while their range is open; afterwards they fold into {@link OpTable} rows. Nothing is
 * kept per launch. What it sums over aggregated iterations falls into {@link Segments}: the first iterations of the
 * range apart, until the steady window (which needs each step's GPU span, measured here) is decided.
 */
final class CorrelationPass {
    private final NsysDatabase db;
    private final Iterations iterations;
    private final Segments segments;
    /** told the largest time of each table this pass reads whole; an unclosed range's end (the evidence pass found it) */
    private final ProfileEnd profileEnd;
    /** DLProf PyTorch mode: the k-th call of a name within an iteration is its own op (CONV2D_1, CUDA_1..CUDA_11). */
    private final boolean occurrenceOps;
    private final InstanceSink sink;
    /** marker statistics and the model_config mark, gathered while streaming */
    final NvtxScan markers = new NvtxScan();
    private final Map<String, String> opIds;
    /** NVTX_EVENTS as the evidence pass read it, in order */
    private final NvtxSpool nvtx;
    /**
     * A connection and thread of their own that read the kernel table ahead of the pass (null: read here). Stepping
     * SQLite through the largest table and fetching its columns was about half of the pass's own thread; the second
     * connection's thread is busy with the host sweep only for the first part of the pass.
     */
    private final Beside ahead;
    /**
     * Another, that reads the runtime table ahead of the pass (null: read here): the pass's thread then does its own
     * work only (a fifth less wall time at 1M launches).
     */
    private final Beside callsAhead;

    /** per segment: ops, API calls, copies, memsets and tensor-core parts of its iterations */
    private final Aggregates[] aggregates;
    final KernelTable kernels;
    final IterationKernelTable iterationKernels;
    /** the devices whose work the pass met */
    final java.util.Set<Integer> devices = new java.util.TreeSet<>();
    /** the device of the last GPU work met (in {@link #devices}) */
    private int lastDevice;
    /** first and last GPU operation of each (process, device), for the busy bins of the timeline sweep */
    final GpuBusy.Spans spans = new GpuBusy.Spans();
    /** each step's GPU span, by launch: the first start and the last end of the work it launched (-1: none) */
    final long[] gpuStart;
    final long[] gpuEnd;
    /** the step of every launch call, by correlation id, for the GPU sweep */
    final LaunchSteps launchSteps;
    /** kernel time in the aggregation range by what the kernel catalogue recognised */
    final KernelMix kernelMix = new KernelMix();
    /** what the kernels prove about GPUs the export does not describe */
    final dlproflint.extract.common.GpuEvidence gpuEvidence = new dlproflint.extract.common.GpuEvidence();
    private long orphanGpu;
    private long duplicateCorrelation;
    private long unclosedRanges;
    /** records whose end lies before their start (taken as zero-length) */
    private long invertedTimes;

    /**
     * The GPU streams' statistics of the work launched in the aggregation range, when asked for: the pass meets every
     * operation with its launch call, in launch order, which along a stream is the order the stream ran them.
     */
    final StreamStats streams;
    /** The few calls later steps need, gathered from this pass's read of the runtime table; null when none are. */
    final SelectedCalls selected;

    /** What the pass met that a reader warns about. */
    record Anomalies(long orphanGpu, long duplicateCorrelation, long unclosedRanges, long invertedTimes) {
    }

    Anomalies anomalies() {
        return new Anomalies(orphanGpu, duplicateCorrelation, unclosedRanges, invertedTimes);
    }

    private final Map<Long, RangeStack> stacks = new HashMap<>();
    /**
     * The stack last looked up and its thread (null: none): a thread's ranges and calls come in runs, and a map lookup
     * boxes the id (a million calls and ranges)
     */
    private RangeStack lastStack;
    private long lastStackTid;
    private final Map<Integer, Map<String, Integer>> occurrences = new HashMap<>();
    private final Map<Long, KernelClass> classByName = new HashMap<>();
    /**
     * Autograd pairing: the op that owned the last forward range carrying each sequence number (name, type),
     * so a backward range with the number reports as that op in the backward direction, as DLProf did.
     * Backward runs shortly after its forward pass: the oldest numbers are dropped beyond a bound.
     */
    private final RecentBySeq<ForwardOp> forwardBySeq = new RecentBySeq<>(1 << 16);
    /** the forward ops put last by name: most are of a few hundred names (bounded like {@link #keyBases}) */
    private final Map<String, ForwardOp> forwardByName = new HashMap<>();

    /** The op a forward range belonged to, for the backward ranges carrying its sequence number. */
    private record ForwardOp(String name, String type) {
    }

    /**
     * @param segments the aggregation range, its first iterations kept apart until the steady window is decided
     * @param streams  also gather the GPU streams' statistics ({@link StreamStats}) of the range
     */
    CorrelationPass(NsysDatabase db, NvtxSpool nvtx, Beside ahead, Beside callsAhead, Iterations iterations,
                    Segments segments, ProfileEnd profileEnd, boolean occurrenceOps, InstanceSink sink, Map<String, String> opIds,
                    boolean streams, SelectedCalls selected, Tapes tapes) {
        this.db = db;
        this.tapes = tapes;
        this.selected = selected;
        this.nvtx = nvtx;
        this.ahead = ahead;
        this.callsAhead = callsAhead;
        this.iterations = iterations;
        this.segments = segments;
        this.profileEnd = profileEnd;
        this.occurrenceOps = occurrenceOps;
        this.sink = sink;
        this.opIds = opIds;
        int n = iterations.count();
        aggregates = new Aggregates[segments.count()];
        for (int i = 0; i < aggregates.length; i++) aggregates[i] = new Aggregates();
        kernels = new KernelTable(segments.count());
        iterationKernels = new IterationKernelTable(n, segments.first());
        gpuStart = new long[n];
        gpuEnd = new long[n];
        java.util.Arrays.fill(gpuStart, -1);
        java.util.Arrays.fill(gpuEnd, -1);
        launchSteps = new LaunchSteps(iterations);
        this.streams = streams ? new StreamStats(segments.count()) : null;
    }

    /** The sums of the iterations the window kept: the segments from iteration {@code from} on, folded together. */
    Aggregates aggregated(int from) {
        boolean[] kept = segments.keptFrom(from);
        Aggregates out = new Aggregates();
        // earlier iterations first, so ops are numbered in order of appearance
        for (int k = 1; k < aggregates.length; k++) if (kept[k]) out.absorb(aggregates[k]);
        out.absorb(aggregates[0]);
        if (streams != null) streams.keep(kept);
        return out;
    }

    /** The segments the window kept ({@link Segments#keptFrom}). */
    boolean[] kept(int from) {
        return segments.keptFrom(from);
    }

    // ---- streams -------------------------------------------------------------------------------------

    private static final class Nvtx {
        long pid;
        long tid;
        long start;
        long end;
        boolean pushPop;
        MarkerText marker;
        /** its sequence number (the marker may be a shape every range of its name shares) */
        long seq;
    }

    private static final class Api {
        long pid;
        long tid;
        long start;
        long end;
        /** the end as recorded (the streams' launch statistics take it as it is) */
        long rawEnd;
        long corr;
        long nameId;
        boolean hasCorr;
        /** both times recorded (a NULL reads as 0) */
        boolean timed;
    }

    /** keeps the kernel rows and the API calls' times read ahead for the passes after this one (null: not kept) */
    private final Tapes tapes;

    void run() throws SQLException {
        boolean gpuPid = true;
        for (String t : NsysDatabase.GPU_TABLES) {
            if (db.has(t) && !db.hasColumn(t, "globalPid")) gpuPid = false;
        }
        try (NvtxStream nv = nvtxStream(gpuPid); ApiStream ap = apiStream(gpuPid); GpuStreams gp = new GpuStreams(gpuPid)) {
            Nvtx n = nv == null ? null : nv.next();
            Api a = ap == null ? null : ap.next();
            GpuRow g = gp.head();
            Api prev = null;
            while (n != null || a != null || g != null) {
                long pid = Long.MAX_VALUE;
                if (n != null) pid = Math.min(pid, n.pid);
                if (a != null) pid = Math.min(pid, a.pid);
                if (g != null) pid = Math.min(pid, g.pid);
                while (a != null && a.pid == pid) {
                    while (n != null && n.pid == pid && n.start <= a.start) {
                        push(n);
                        n = nv.next();
                    }
                    while (g != null && g.pid == pid && (!a.hasCorr || g.corr < a.corr)) {
                        if (prev != null && prev.pid == pid && prev.hasCorr && g.corr == prev.corr) {
                            duplicateCorrelation++;
                        }
                        orphan(g);
                        g = gp.advance();
                    }
                    g = apiCall(a, gp, pid);
                    prev = a;
                    a = ap.next();
                }
                while (n != null && n.pid == pid) {
                    push(n);
                    n = nv.next();
                }
                while (g != null && g.pid == pid) {
                    orphan(g);
                    g = gp.advance();
                }
                flushAll();
            }
            // every table read to its end: the largest time of each counts towards the profile's end
            if (ap != null) profileEnd.readWhole("CUPTI_ACTIVITY_KIND_RUNTIME", ap.lastTime, ap.rs);
            for (GpuRow r : gp.rows) profileEnd.readWhole(r.table, r.lastTime, r.rs);
        }
    }

    /**
     * NVTX ranges by (pid, start, end DESC), from the evidence pass's {@link NvtxSpool}; marks are counted and
     * skipped (they have no duration). Where the GPU tables say no process, every range is of process 0: the
     * processes' ranges are merged by start.
     */
    private NvtxStream nvtxStream(boolean gpuPid) {
        if (!db.has("NVTX_EVENTS") || !db.hasColumn("NVTX_EVENTS", "start")) return null;
        return new NvtxStream(gpuPid ? nvtx.inOrder() : nvtx.byStart(), gpuPid);
    }

    private final class NvtxStream implements AutoCloseable {
        private final NvtxSpool.Reader in;
        private final boolean gpuPid;
        private final Nvtx row = new Nvtx();
        private final MarkerText.Parser parser = new MarkerText.Parser(db);

        NvtxStream(NvtxSpool.Reader in, boolean gpuPid) {
            this.in = in;
            this.gpuPid = gpuPid;
        }

        /** The next range (reused object: the caller copies what it keeps). */
        Nvtx next() throws SQLException {
            NvtxSpool.Row r;
            while ((r = in.next()) != null) {
                if (r.type == NvtxSpool.TYPE_MARK) {
                    // a mark's flags were not looked for (the evidence pass skips marks): found when asked
                    markers.observe(parser.parse(r.text(), r.registered, r.textId), NvtxSpool.TYPE_MARK, r.registered);
                    continue;
                }
                // an op range made from its name's parse, else the text parsed; with the classification the evidence
                // pass found (a registered string's parse is shared, found once)
                MarkerText m = r.marker(parser);
                row.pid = gpuPid ? r.pid : 0;
                row.tid = r.tid;
                row.start = r.start;
                long end = r.end;
                if (r.noEnd) {
                    unclosedRanges++;
                    // the evidence pass met every range of the spool: an unclosed one made it find the end
                    end = profileEnd.known();
                    if (end < 0) throw new IllegalStateException("the profile's end is not known");
                }
                if (end < r.start) invertedTimes++;
                row.end = Math.max(r.start, end);
                row.pushPop = r.type == NvtxSpool.TYPE_PUSH_POP;
                row.marker = m;
                row.seq = r.seqOf(m);
                markers.observe(m, r.type, r.registered);
                return row;
            }
            return null;
        }

        @Override
        public void close() {
            in.close();
        }
    }

    /** the columns of the API calls' query (see {@link #apiStream}) that {@link Tapes#callTimes} keeps */
    static final int API_START = 1;
    static final int API_END = 2;

    /** CUDA API calls by (pid, correlationId, start): per thread that is call order. */
    private ApiStream apiStream(boolean gpuPid) throws SQLException {
        String t = "CUPTI_ACTIVITY_KIND_RUNTIME";
        if (!db.has(t)) return null;
        String tid = db.col(t, "globalTid", "0");
        String pid = gpuPid ? NsysDatabase.pidOf(tid) : "0";
        String corr = db.col(t, "correlationId", "NULL");
        // the process is computed from the thread's id here (one native call a row fewer)
        // the calls' times kept for the host sweep (a reading thread with time to spare writes them)
        AheadCursor.Ordered in = AheadCursor.ordered(db, callsAhead, tapes == null ? null : tapes.callTimes, t, null,
                new String[] {pid, corr, "start"},
                "SELECT " + corr + ", start, end, " + tid + ", " + db.col(t, "nameId", "0") + " FROM " + t, 5);
        return new ApiStream(in.scan(), in.rows(), gpuPid);
    }

    private final class ApiStream implements AutoCloseable {
        private final OrderedScan scan;
        private final RowCursor rs;
        private Api row = new Api();
        private Api spare = new Api();
        /** the largest start or end read (0 at least) */
        long lastTime;

        private final boolean gpuPid;

        ApiStream(OrderedScan scan, RowCursor rs, boolean gpuPid) {
            this.scan = scan;
            this.rs = rs;
            this.gpuPid = gpuPid;
        }

        /** The next call; the previous one stays valid until the call after (the pass compares the two). */
        Api next() throws SQLException {
            if (!rs.next()) return null;
            Api a = spare;
            spare = row;
            row = a;
            a.corr = rs.getLong(0);
            a.start = rs.getLong(API_START);
            a.tid = rs.getLong(3);
            a.pid = gpuPid ? NsysDatabase.pidOf(a.tid) : 0;
            scan.check(a.pid, a.corr, a.start);
            long aEnd = rs.getLong(API_END);
            lastTime = Math.max(lastTime, Math.max(a.start, aEnd));
            if (aEnd < a.start) invertedTimes++;
            a.end = Math.max(a.start, aEnd);
            a.rawEnd = aEnd;
            a.timed = !(a.start == 0 && rs.isNull(API_START)) && !(aEnd == 0 && rs.isNull(API_END));
            a.hasCorr = a.corr != 0; // NULL reads as 0
            a.nameId = rs.getLong(4);
            return a;
        }

        @Override
        public void close() throws SQLException {
            rs.close();
        }
    }

    /**
     * One GPU activity table's current row: the merge keys and times are read when the row is reached; names,
     * launch dimensions and memory details only when they are used (a few times per distinct kernel), straight
     * from the cursor, which stays on the row until {@link GpuStreams#advance}.
     */
    private final class GpuRow {
        final int kind; // 0 kernel, 1 memcpy, 2 memset
        final OrderedScan scan;
        final RowCursor rs;
        final boolean gpuPid;
        /** its operations count towards the GPU busy spans (see {@link GpuBusy}) */
        final boolean spanned;
        /** the column of the stream id */
        final int streamColumn;
        long pid;
        /** process and stream of the operation as its own table names them (the stream statistics' key) */
        long tablePid;
        long stream;
        long corr;
        long start;
        long end;
        int device;
        long nameId;
        /** the row has no start or no end (a NULL): it has no interval to count */
        boolean noTimes;
        /** the table it reads */
        final String table;
        /** the largest start or end read (0 at least) */
        long lastTime;

        GpuRow(int kind, String table, OrderedScan scan, RowCursor rs, boolean gpuPid, boolean spanned, int streamColumn,
               KernelDetails details) {
            this.kind = kind;
            this.table = table;
            this.details = details;
            this.streamColumn = streamColumn;
            this.scan = scan;
            this.rs = rs;
            this.gpuPid = gpuPid;
            this.spanned = spanned;
        }

        boolean read() throws SQLException {
            if (!rs.next()) return false;
            // the table's process column as it is (0 without one): its process and the merge's are computed here
            tablePid = NsysDatabase.pidOf(rs.getLong(0));
            pid = gpuPid ? tablePid : 0;
            long c = rs.getLong(1);
            start = rs.getLong(2);
            scan.check(pid, c, start);
            corr = c == 0 && rs.isNull(1) ? -1 : c;
            long gEnd = rs.getLong(3);
            lastTime = Math.max(lastTime, Math.max(start, gEnd));
            if (gEnd < start) invertedTimes++;
            end = Math.max(start, gEnd);
            device = rs.getInt(4);
            nameId = kind == 0 ? rs.getLong(5) : 0;
            stream = rs.getLong(streamColumn);
            noTimes = start == 0 && rs.isNull(2) || gEnd == 0 && rs.isNull(3);
            if (spanned && !noTimes) {
                spans.add(gpuPid ? pid : tablePid, device, start, gEnd);
            }
            return true;
        }

        /**
         * The kernel's demangled name id and launch dimensions, read with the row ({@code details} null) or, where the
         * rows are read ahead, by the row's id when they are used (a few times per distinct kernel: seven columns
         * fewer for every launch to fetch)
         */
        private final KernelDetails details;

        long longId() throws SQLException {
            return details == null ? rs.getLong(6) : details.of(rs.getLong(6))[0];
        }

        String grid() throws SQLException {
            return dim(0) + "," + dim(1) + "," + dim(2);
        }

        String block() throws SQLException {
            return dim(3) + "," + dim(4) + "," + dim(5);
        }

        /** grid x, y, z, then block x, y, z */
        int dim(int i) throws SQLException {
            return details == null ? rs.getInt(7 + i) : (int) details.of(rs.getLong(6))[1 + i];
        }

        long bytes() throws SQLException {
            return rs.getLong(5);
        }

        int copyKind() throws SQLException {
            return rs.getInt(6);
        }

        int srcKind() throws SQLException {
            return rs.getInt(7);
        }

        int dstKind() throws SQLException {
            return rs.getInt(8);
        }

        int memKind() throws SQLException {
            return rs.getInt(6);
        }
    }

    /**
     * Kernels, memcpys and memsets, each ordered by (pid, correlationId, start), merged here rather than by a
     * UNION ALL ... ORDER BY so each table is sorted only if it is not already in that order.
     */
    private final class GpuStreams implements AutoCloseable {
        private final List<GpuRow> rows = new ArrayList<>();
        private final List<GpuRow> live = new ArrayList<>();
        private GpuRow head;

        GpuStreams(boolean gpuPid) throws SQLException {
            try {
                String k = "CUPTI_ACTIVITY_KIND_KERNEL";
                if (db.has(k)) {
                    String details = db.col(k, "demangledName", db.col(k, "shortName", "0")) + ", " + db.col(k, "gridX", "0")
                            + ", " + db.col(k, "gridY", "0") + ", " + db.col(k, "gridZ", "0") + ", " + db.col(k, "blockX", "0")
                            + ", " + db.col(k, "blockY", "0") + ", " + db.col(k, "blockZ", "0");
                    // read ahead, the details are read by the row's id when used (a stream of instances uses them all)
                    KernelDetails lazy = ahead != null && sink == null && KernelDetails.possible(db, k)
                            ? new KernelDetails(db, k, details) : null;
                    if (lazy != null) add(0, k, gpuPid, db.col(k, "shortName", "0") + ", rowid", 2, lazy);
                    else add(0, k, gpuPid, db.col(k, "shortName", "0") + ", " + details, 8, null);
                }
                String m = "CUPTI_ACTIVITY_KIND_MEMCPY";
                if (db.has(m)) {
                    add(1, m, gpuPid, db.col(m, "bytes", "0") + ", " + db.col(m, "copyKind", "0") + ", "
                            + db.col(m, "srcKind", "7") + ", " + db.col(m, "dstKind", "7"), 4, null);
                }
                String s = "CUPTI_ACTIVITY_KIND_MEMSET";
                if (db.has(s)) add(2, s, gpuPid, db.col(s, "bytes", "0") + ", " + db.col(s, "memKind", "7"), 2, null);
                pick();
            } catch (SQLException | RuntimeException e) {
                close();
                throw e;
            }
        }

        /** @param detailColumns how many columns {@code details} has (the stream id follows them) */
        private void add(int kind, String table, boolean gpuPid, String details, int detailColumns, KernelDetails lazy)
                throws SQLException {
            String pid = gpuPid ? NsysDatabase.pidOf(db.col(table, "globalPid", "0")) : "0";
            String corr = db.col(table, "correlationId", "NULL");
            // the table's process column, read once: the merge's process (gpuPid) and the one the GPU busy spans group
            // by (the table's own, as nsys analyze does) are computed from it
            boolean spanned = db.hasColumn(table, "deviceId") && db.hasColumn(table, "start") && db.hasColumn(table, "end");
            String select = "SELECT " + db.col(table, "globalPid", "0") + ", " + corr + ", start, end, "
                    + db.col(table, "deviceId", "0") + ", " + details + ", " + db.col(table, "streamId", "0") + " FROM " + table;
            int columns = 6 + detailColumns;
            // the kernel rows kept for the GPU sweep, by the thread that reads them, where their details are read by id
            RowTape keep = kind == 0 && lazy != null && tapes != null ? tapes.kernels.rows : null;
            AheadCursor.Ordered in = AheadCursor.ordered(db, kind == 0 ? ahead : null, keep, table, null,
                    new String[] {pid, corr, "start"}, select, columns);
            GpuRow row = new GpuRow(kind, table, in.scan(), in.rows(), gpuPid, spanned, columns - 1, lazy);
            rows.add(row);
            if (row.read()) live.add(row);
        }

        GpuRow head() {
            return head;
        }

        /** Moves past the head row; returns the new head. */
        GpuRow advance() throws SQLException {
            if (!head.read()) live.remove(head);
            pick();
            return head;
        }

        private void pick() {
            GpuRow best = null;
            for (int i = 0; i < live.size(); i++) { // by index: an iterator a launch was a tenth of what the pass allocated
                GpuRow r = live.get(i);
                if (best == null || before(r, best)) best = r;
            }
            head = best;
        }

        private boolean before(GpuRow a, GpuRow b) {
            if (a.pid != b.pid) return a.pid < b.pid;
            if (a.corr != b.corr) return a.corr < b.corr;
            return a.start < b.start;
        }

        @Override
        public void close() throws SQLException {
            for (GpuRow r : rows) {
                if (r.details != null) r.details.close();
            }
            for (GpuRow r : rows) r.rs.close();
        }
    }

    // ---- NVTX stacks -----------------------------------------------------------------------------------

    private void push(Nvtx n) {
        RangeStack st = stackOf(n.tid);
        if (st == null) {
            st = new RangeStack();
            stacks.put(n.tid, st);
            lastStack = st;
        }
        while (!st.isEmpty() && !NvtxRange.encloses(st.peek().end, n.start, n.end)) close(st.pop());
        NvtxRange parent = st.peek();
        NvtxRange r = st.next(n.start, n.end, n.marker, n.seq, n.pushPop);
        MarkerText m = n.marker;
        if (parent != null && parent.ownerIsFrameworkOp) {
            r.owner = parent.owner; // aten/helper ranges inside a PyTorch op belong to it
            r.ownerIsFrameworkOp = true;
        } else if (m.kind == MarkerText.Kind.DLPROF_OP || m.kind == MarkerText.Kind.ATEN
                || m.kind == MarkerText.Kind.PLAIN) {
            String name = m.name;
            String type = m.type;
            if (m.kind == MarkerText.Kind.DLPROF_OP) {
                NvtxRange trace = nearestTrace(st);
                if (trace != null && trace.marker.name != null) name = trace.marker.name;
            }
            ForwardOp forward = m.direction == Direction.BPROP && n.seq >= 0 ? forwardBySeq.get(n.seq) : null;
            if (forward != null) {
                name = forward.name();
                type = forward.type();
            }
            int it = iterations.indexOf(n.start);
            OpInstance op = new OpInstance(opKey(name, m.direction, it), name, type, m.direction, it, n.start, n.end);
            op.dataType = m.dataType;
            op.inputShapes = m.inputShapes;
            NvtxRange trace = m.kind == MarkerText.Kind.DLPROF_OP ? nearestTrace(st) : null;
            if (trace != null) op.stack = trace.marker.stack;
            r.owner = op;
            r.opensOwner = true;
            r.ownerIsFrameworkOp = m.kind != MarkerText.Kind.PLAIN;
        } else if (parent != null) {
            r.owner = parent.owner; // trace markers and config marks are transparent
        }
        // only ranges of forward ops (the autograd thread's own ops count on another counter)
        if (m.kind == MarkerText.Kind.ATEN && m.direction == Direction.FPROP && n.seq >= 0 && r.owner != null
                && r.owner.direction != Direction.BPROP) {
            forwardBySeq.put(n.seq, forwardOp(r.owner.name, r.owner.type));
        }
        st.open();
    }

    private ForwardOp forwardOp(String name, String type) {
        ForwardOp f = forwardByName.get(name);
        if (f != null && java.util.Objects.equals(f.type(), type)) return f;
        f = new ForwardOp(name, type);
        if (forwardByName.size() < KEY_BASES || forwardByName.containsKey(name)) forwardByName.put(name, f);
        return f;
    }

    private static NvtxRange nearestTrace(RangeStack st) {
        for (int i = 0; i < st.size(); i++) {
            NvtxRange r = st.fromTop(i);
            if (r.marker.kind == MarkerText.Kind.TRACE_MARKER) return r;
            if (r.ownerIsFrameworkOp) return null;
        }
        return null;
    }

    /**
     * The op keys' common part by name and direction: an op range's key was a new string each time (a million on a
     * 1M-launch export, a third of what its read allocated), for a few hundred names. Bounded: past
     * {@link #KEY_BASES} names (ranges named by a number each) the rest are spelt each time.
     */
    private final Map<String, String[]> keyBases = new HashMap<>();
    private static final int KEY_BASES = 1 << 16;
    private static final Direction[] DIRECTIONS = Direction.values();

    private String keyBase(String name, Direction dir) {
        String[] byDir = keyBases.get(name);
        if (byDir == null) {
            if (keyBases.size() >= KEY_BASES) return name + '\u0001' + dir;
            byDir = new String[DIRECTIONS.length];
            keyBases.put(name, byDir);
        }
        String base = byDir[dir.ordinal()];
        if (base == null) byDir[dir.ordinal()] = base = name + '\u0001' + dir;
        return base;
    }

    private String opKey(String name, Direction dir, int iteration) {
        String base = keyBase(name, dir);
        if (!occurrenceOps) return base;
        Map<String, Integer> occ = occurrences.computeIfAbsent(iteration, k -> new HashMap<>());
        if (occurrences.size() > 4) occurrences.keySet().removeIf(i -> i < iteration - 2); // keep memory bounded
        int k = occ.merge(base, 1, Integer::sum);
        return base + '\u0001' + k;
    }

    private void close(NvtxRange r) {
        if (r.opensOwner) finish(r.owner);
    }

    private void flushAll() {
        for (RangeStack st : stacks.values()) {
            while (!st.isEmpty()) close(st.pop());
        }
        stacks.clear();
        lastStack = null;
    }

    /** The sums of iteration {@code it}'s segment, or null outside the aggregation range. */
    private Aggregates aggregates(int it) {
        int k = segments.of(it);
        return k < 0 ? null : aggregates[k];
    }

    private void finish(OpInstance op) {
        Aggregates g = aggregates(op.iteration);
        if (g != null) g.ops.add(op);
    }

    /** The thread's stack of open ranges, or null (the last one looked up is kept at hand). */
    private RangeStack stackOf(long tid) {
        if (lastStack == null || tid != lastStackTid) {
            lastStack = stacks.get(tid);
            lastStackTid = tid;
        }
        return lastStack;
    }

    private OpInstance ownerOf(Api a) {
        RangeStack st = stackOf(a.tid);
        if (st == null) return null;
        // pop ranges of this thread that ended before this call: this thread's later calls start later still
        while (!st.isEmpty() && st.peek().end < a.start) close(st.pop());
        for (int i = 0; i < st.size(); i++) {
            NvtxRange r = st.fromTop(i);
            if (r.start <= a.start && a.end <= r.end) return r.owner;
        }
        return null;
    }

    // ---- API calls and GPU work -------------------------------------------------------------------------

    /**
     * The innermost push/pop range around a synchronising call (null: none with a text), read
     * off this pass's own range stacks as the call goes by: the sync facts' "called in" ranges, without a second read
     * of NVTX_EVENTS. Kept with the call by {@link SelectedCalls} (the synchronising calls are those of
     * {@link SelectedCalls#synchronizing}): its text is spelt when the sync facts count it.
     */
    private MarkerText syncRange(Api a) {
        RangeStack st = stackOf(a.tid);
        if (st == null) return null;
        for (int i = 0; i < st.size(); i++) {
            NvtxRange r = st.fromTop(i);
            if (r.pushPop && r.start <= a.start && a.rawEnd <= r.end) {
                // a canonical op range's text is its name and number: never empty (and not spelt here)
                return r.marker.canonical() ? r.marker.withSeq(r.seq) : !r.marker.text().isEmpty() ? r.marker : null;
            }
        }
        return null;
    }

    /** Per API name, the stacks of the ops it was called in, weighted by the calls' time. */
    final Map<String, SiteVotes<List<dlproflint.facts.StackFrame>>> apiSites = new TreeMap<>();

    /** An API's name as its string id gives it, its normalized name, and whether its calls synchronize. */
    private record ApiName(String raw, String name, boolean synchronizing) {
    }

    /**
     * The API names by string id (an index into {@link #apiNameList}): a million calls share a few dozen names, the
     * regex runs once per name, and no call boxes its id to find it.
     */
    private final LongIntMap apiNameIndex = new LongIntMap();
    private final List<ApiName> apiNameList = new ArrayList<>();
    /** the last call's name id and name: calls of one name come in runs */
    private long lastApiId;
    private ApiName lastApi;

    private ApiName apiName(long nameId) throws SQLException {
        int at = apiNameIndex.get(nameId, -1);
        if (at >= 0) return apiNameList.get(at);
        String raw = db.string(nameId);
        if (raw == null) raw = "unknown";
        ApiName n = new ApiName(raw, ApiNames.normalize(raw), selected != null && selected.synchronizing.containsKey(nameId));
        apiNameIndex.put(nameId, apiNameList.size());
        apiNameList.add(n);
        return n;
    }

    /**
     * One API call and the GPU work it launched (the GPU rows of the stream with its correlation id, consumed
     * here); returns the GPU stream's next head.
     */
    private GpuRow apiCall(Api a, GpuStreams gp, long pid) throws SQLException {
        if (lastApi == null || a.nameId != lastApiId) {
            lastApi = apiName(a.nameId);
            lastApiId = a.nameId;
        }
        String raw = lastApi.raw();
        String name = lastApi.name();
        long dur = a.end - a.start;
        int it = iterations.indexOf(a.start);
        if (a.hasCorr) launchSteps.callInStep(pid, a.corr, it);
        Aggregates sums = aggregates(it);
        if (sums != null) sums.apiCall(name, dur);
        OpInstance owner = ownerOf(a);
        if (selected != null) {
            selected.offer(a.nameId, a.tid, a.start, a.rawEnd, a.timed, lastApi.synchronizing() ? syncRange(a) : null);
        }
        if (owner != null) {
            owner.apiNs += dur;
            // the call site of an API is its op's (DLProf markers): what a finding about the API points at
            if (!owner.stack.isEmpty()) apiSites.computeIfAbsent(name, k -> new SiteVotes<>()).add(owner.stack, dur);
        }
        GpuRow g = gp.head();
        boolean work = false;
        while (a.hasCorr && g != null && g.pid == pid && g.corr == a.corr) {
            work = true;
            if (owner != null) {
                gpuWork(g, owner, a, it, name);
            } else {
                // DLProf: CUDA work outside every range becomes unassociated_<kernel or API name>, type = that name
                String label = g.kind == 0 ? kernelName(g) : raw;
                OpInstance u = unassociated(label, it, a.start, a.end);
                u.apiNs = dur;
                gpuWork(g, u, a, it, name);
                finish(u);
            }
            g = gp.advance();
        }
        if (owner == null && !work) {
            OpInstance u = unassociated(raw, it, a.start, a.end);
            u.apiNs = dur;
            finish(u);
        }
        return g;
    }

    private OpInstance unassociated(String label, int it, long start, long end) {
        String name = "unassociated_" + label;
        return new OpInstance(opKey(name, Direction.NA, it), name, label, Direction.NA, it, start, end);
    }

    /**
     * A GPU activity without its launch call: its step is the one whose calls' correlation ids enclose its own (CUDA
     * numbers launches in call order), none when it lies below them all (launched before the capture).
     */
    private void orphan(GpuRow g) throws SQLException {
        orphanGpu++;
        int it = launchSteps.stepOf(g.pid, g.corr, g.corr >= 0, g.start);
        String label = g.kind == 0 ? kernelName(g) : g.kind == 1 ? "memcpy" : "memset";
        OpInstance u = unassociated(label, it, g.start, g.start);
        gpuWork(g, u, null, it, "unknown");
        finish(u);
    }

    private String kernelName(GpuRow g) throws SQLException {
        if (g.nameId == lastKernelId && lastKernelName != null) return lastKernelName;
        String s = db.string(g.nameId);
        return s == null ? "unknown_kernel" : s;
    }

    /** The last kernel's name id, name and class: a launch's name is looked up twice, and names come in runs. */
    private long lastKernelId;
    private String lastKernelName;
    private KernelClass lastKernelClass;

    /** The catalogue's class of a kernel, once per name id (short name, then the demangled one). */
    private KernelClass kernelClass(GpuRow g) throws SQLException {
        if (g.nameId == lastKernelId && lastKernelClass != null) return lastKernelClass;
        KernelClass c = classByName.get(g.nameId);
        if (c == null) {
            long longId = g.longId();
            c = KernelCatalogue.builtin().classify(kernelName(g), longId == g.nameId ? null : db.string(longId));
            classByName.put(g.nameId, c);
        }
        lastKernelName = kernelName(g);
        lastKernelId = g.nameId;
        lastKernelClass = c;
        return c;
    }

    private void gpuWork(GpuRow g, OpInstance owner, Api a, int it, String apiName) throws SQLException {
        long dur = g.end - g.start;
        int segment = segments.of(it);
        boolean isKernel = g.kind == 0;
        if (streams != null && segment >= 0) {
            // the streams' statistics: work launched in the range, in launch order per stream
            streams.op(segment, g.device, g.tablePid, g.stream, isKernel, g.start, g.end,
                    a == null ? StreamStats.NO_CALL : a.start, a == null ? StreamStats.NO_CALL : a.rawEnd);
        }
        KernelClass kc = isKernel ? kernelClass(g) : KernelClass.UNKNOWN;
        boolean tc = kc.tensorCores();
        if (isKernel) gpuEvidence.kernel(g.device, kc);
        owner.addGpu(g.start, g.end, isKernel, tc);
        // the device guard (issue 28): the per-device state of every consumer grows with this set
        if (g.device != lastDevice || devices.isEmpty()) { // a launch is mostly on the device of the one before it
            if (!devices.contains(g.device)) dlproflint.extract.common.DeviceLimit.admit(devices.size());
            devices.add(g.device);
            lastDevice = g.device;
        }
        if (it >= 0 && it < gpuStart.length && !g.noTimes) {
            if (gpuStart[it] < 0 || g.start < gpuStart[it]) gpuStart[it] = g.start;
            gpuEnd[it] = Math.max(gpuEnd[it], g.end);
        }
        long apiDur = a == null ? 0 : a.end - a.start;
        if (segment >= 0) {
            Aggregates sums = aggregates[segment];
            if (isKernel) {
                String kname = kernelName(g);
                KernelTable.Row row = kernels.find(owner.key, kname, g.device);
                if (row == null) {
                    long longId = g.longId();
                    String longName = longId == g.nameId ? kname : db.string(longId);
                    row = kernels.create(owner.key, kname, longName == null ? kname : longName, g.device, kc, g.grid(),
                            g.block());
                }
                row.add(dur, apiDur, a != null, segment);
                iterationKernels.add(it, row.index(), dur, g.start);
                kernelMix.add(kname, kc, dur);
                if (tc || TensorCores.opTypeEligible(owner.type)) sums.eligibleKernelNs += dur;
                if (tc) sums.tcKernelNs += dur;
            } else if (g.kind == 1) {
                sums.memcpy(apiName, g.copyKind(), g.srcKind(), g.dstKind(), g.bytes(), dur);
            } else {
                sums.memset(apiName, g.memKind(), g.bytes(), dur);
            }
        }
        if (sink != null && segment >= 0) {
            String kname = isKernel ? kernelName(g) : g.kind == 1 ? "[CUDA memcpy " + MemoryKinds.copyKind(g.copyKind()) + "]"
                    : "[CUDA memset]";
            String longName = isKernel ? db.string(g.longId()) : kname;
            sink.accept(new KernelInstance(isKernel ? "kernel" : g.kind == 1 ? "memcpy" : "memset", it,
                    opIds.getOrDefault(owner.key, owner.key), owner.name, owner.direction, owner.type, kname,
                    longName == null ? kname : longName, g.device, g.start, dur, a == null ? 0 : a.start, apiDur, tc,
                    isKernel ? g.dim(0) : 0, isKernel ? g.dim(1) : 0, isKernel ? g.dim(2) : 0, isKernel ? g.dim(3) : 0,
                    isKernel ? g.dim(4) : 0, isKernel ? g.dim(5) : 0, owner.dataType == null ? "" : owner.dataType,
                    owner.inputShapes == null ? "" : owner.inputShapes, ""));
        }
    }
}
