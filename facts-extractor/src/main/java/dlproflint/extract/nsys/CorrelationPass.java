package dlproflint.extract.nsys;

import dlproflint.facts.InstanceSink;
import dlproflint.extract.common.ApiNames;
import dlproflint.extract.common.IterationKernelTable;
import dlproflint.extract.common.Iterations;
import dlproflint.extract.common.KernelTable;
import dlproflint.extract.common.MemoryKinds;
import dlproflint.extract.common.OpInstance;
import dlproflint.extract.common.OpTable;
import dlproflint.extract.common.RowCursor;
import dlproflint.extract.common.SiteVotes;
import dlproflint.extract.common.StreamStats;
import dlproflint.extract.common.TensorCores;
import dlproflint.extract.kernels.KernelCatalogue;
import dlproflint.extract.kernels.KernelClass;
import dlproflint.extract.kernels.KernelMix;
import dlproflint.facts.ApiStat;
import dlproflint.facts.Direction;
import dlproflint.facts.KernelInstance;
import dlproflint.facts.MemcpyStat;
import dlproflint.facts.MemsetStat;
import dlproflint.facts.StatAccumulator;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The main pass: NVTX ranges → CUDA API calls → GPU work, as three ORDER BY streams merged per process.
 * <ul>
 *   <li>NVTX ranges ordered by (pid, start) feed per-thread stacks of open ranges (an interval sweep);</li>
 *   <li>API calls ordered by (pid, correlationId) - per thread that is call order - find their op on their
 *       thread's stack (innermost range containing the call);</li>
 *   <li>kernels ∪ memcpys ∪ memsets ordered by (pid, correlationId) are sort-merged onto the API calls.</li>
 * </ul>
 * Op instances live while their range is open; afterwards they fold into {@link OpTable} rows. Nothing is
 * kept per launch.
 */
final class CorrelationPass {
    private final NsysDatabase db;
    private final Iterations iterations;
    private final int aggStart;
    private final int aggStop;
    private final long profileEnd;
    /** DLProf PyTorch mode: the k-th call of a name within an iteration is its own op (CONV2D_1, CUDA_1..CUDA_11). */
    private final boolean occurrenceOps;
    private final InstanceSink sink;
    /** marker statistics and the model_config mark, gathered while streaming */
    final NvtxScan markers = new NvtxScan();
    private final Map<String, String> opIds;

    final OpTable ops = new OpTable();
    final KernelTable kernels = new KernelTable();
    final IterationKernelTable iterationKernels;
    final Map<String, StatAccumulator> api = new TreeMap<>();
    private final Map<String, MemAgg> memcpy = new LinkedHashMap<>();
    private final Map<String, MemAgg> memset = new LinkedHashMap<>();
    final Map<Integer, long[]> deviceCounts = new TreeMap<>(); // device → {kernels, kernelNs, memOps}
    /** first and last GPU operation of each (process, device), for the busy bins of the timeline sweep */
    final GpuBusy.Spans spans = new GpuBusy.Spans();
    final long[] iterKernels;
    final long[] iterGpu;
    final long[] iterTc;
    final long[] iterMem;
    /**
     * DLProf's tensor-core utilisation parts: kernel time of tensor-core eligible work and the tensor-core
     * kernel time within it. A tensor-core kernel is eligible work whatever its op's name says (it proves
     * the op could use tensor cores; TensorRT layers, custom ops), so the share is at most 100 % by construction.
     */
    long eligibleKernelNs;
    long tcKernelNs;
    /** kernel time in the aggregation window by what the kernel catalogue recognised */
    final KernelMix kernelMix = new KernelMix();
    /** what the kernels prove about GPUs the export does not describe */
    final dlproflint.extract.common.GpuEvidence gpuEvidence = new dlproflint.extract.common.GpuEvidence();
    long orphanGpu;
    long duplicateCorrelation;
    long unclosedRanges;
    /** records whose end lies before their start (taken as zero-length) */
    long invertedTimes;

    /** the GPU streams' statistics over [streamsFrom, streamsTo), when asked for ({@link #measureStreams}) */
    StreamStats streams;
    private long streamsFrom;
    private long streamsTo;

    private final Map<Long, ArrayDeque<NvtxRange>> stacks = new HashMap<>();
    private final Map<Integer, Map<String, Integer>> occurrences = new HashMap<>();
    private final Map<Long, KernelClass> classByName = new HashMap<>();
    /**
     * Autograd pairing: the op that owned the last forward range carrying each sequence number (name, type),
     * so a backward range with the number reports as that op in the backward direction, as DLProf did.
     * Backward runs shortly after its forward pass: the oldest numbers are dropped beyond a bound.
     */
    private final Map<Long, String[]> forwardBySeq = new java.util.LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, String[]> eldest) {
            return size() > 1 << 16;
        }
    };

    private static final class MemAgg {
        String api;
        String copyKind;
        String src;
        String dst;
        long count;
        long bytes;
        long small;
        final StatAccumulator gpu = new StatAccumulator();
    }

    CorrelationPass(NsysDatabase db, Iterations iterations, int aggStart, int aggStop, long profileEnd,
                    boolean occurrenceOps, InstanceSink sink, Map<String, String> opIds) {
        this.db = db;
        this.iterations = iterations;
        this.aggStart = aggStart;
        this.aggStop = aggStop;
        this.profileEnd = profileEnd;
        this.occurrenceOps = occurrenceOps;
        this.sink = sink;
        this.opIds = opIds;
        int n = iterations.count();
        iterKernels = new long[n];
        iterGpu = new long[n];
        iterTc = new long[n];
        iterMem = new long[n];
        iterationKernels = new IterationKernelTable(n, aggStart);
    }

    /**
     * Also gathers the GPU streams' statistics ({@link StreamStats}) of the work launched in {@code [from, to)}:
     * the pass meets every operation with its launch call, in launch order, which along a stream is the order
     * the stream ran them.
     */
    void measureStreams(long from, long to) {
        streams = new StreamStats();
        streamsFrom = from;
        streamsTo = to;
    }

    // ---- streams -------------------------------------------------------------------------------------

    private static final class Nvtx {
        long pid;
        long tid;
        long start;
        long end;
        MarkerText marker;
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
    }

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
        }
    }

    /** NVTX ranges by (pid, start, end DESC); marks are counted and skipped (they have no duration). */
    private NvtxStream nvtxStream(boolean gpuPid) throws SQLException {
        if (!db.has("NVTX_EVENTS") || !db.hasColumn("NVTX_EVENTS", "start")) return null;
        String tid = db.col("NVTX_EVENTS", "globalTid", "0");
        String type = db.col("NVTX_EVENTS", "eventType", "59");
        String where = type + " IN (34, " + NvtxScan.RANGE_TYPES + ")";
        String pid = gpuPid ? NsysDatabase.pidOf(tid) : "0";
        OrderedScan scan = db.scan("NVTX_EVENTS", where, pid, "start", "end DESC");
        return new NvtxStream(scan, scan.open("SELECT " + pid + ", start, end, " + tid + ", " + NvtxScan.textExpr(db)
                + ", " + type + " FROM NVTX_EVENTS WHERE " + where));
    }

    private final class NvtxStream implements AutoCloseable {
        private final OrderedScan scan;
        private final RowCursor rs;
        private final Nvtx row = new Nvtx();

        NvtxStream(OrderedScan scan, RowCursor rs) {
            this.scan = scan;
            this.rs = rs;
        }

        /** The next range (reused object: the caller copies what it keeps). */
        Nvtx next() throws SQLException {
            while (rs.next()) {
                long pid = rs.getLong(0);
                long start = rs.getLong(1);
                long end = rs.getLong(2);
                scan.check(pid, start, end);
                int type = rs.getInt(6);
                String text = rs.getString(4);
                boolean registered = text == null && !rs.isNull(5);
                if (registered) text = db.string(rs.getLong(5));
                if (type == 34) {
                    markers.observe(MarkerText.of(text, registered), 34, registered);
                    continue;
                }
                row.pid = pid;
                row.tid = rs.getLong(3);
                row.start = start;
                if (end == 0 && rs.isNull(2)) {
                    unclosedRanges++;
                    end = profileEnd;
                }
                if (end < start) invertedTimes++;
                row.end = Math.max(start, end);
                row.marker = MarkerText.of(text, registered);
                markers.observe(row.marker, type, registered);
                return row;
            }
            return null;
        }

        @Override
        public void close() throws SQLException {
            rs.close();
        }
    }

    /** CUDA API calls by (pid, correlationId, start): per thread that is call order. */
    private ApiStream apiStream(boolean gpuPid) throws SQLException {
        String t = "CUPTI_ACTIVITY_KIND_RUNTIME";
        if (!db.has(t)) return null;
        String tid = db.col(t, "globalTid", "0");
        String pid = gpuPid ? NsysDatabase.pidOf(tid) : "0";
        String corr = db.col(t, "correlationId", "NULL");
        OrderedScan scan = db.scan(t, null, pid, corr, "start");
        return new ApiStream(scan, scan.open("SELECT " + pid + ", " + corr + ", start, end, " + tid + ", "
                + db.col(t, "nameId", "0") + " FROM " + t));
    }

    private final class ApiStream implements AutoCloseable {
        private final OrderedScan scan;
        private final RowCursor rs;
        private Api row = new Api();
        private Api spare = new Api();

        ApiStream(OrderedScan scan, RowCursor rs) {
            this.scan = scan;
            this.rs = rs;
        }

        /** The next call; the previous one stays valid until the call after (the pass compares the two). */
        Api next() throws SQLException {
            if (!rs.next()) return null;
            Api a = spare;
            spare = row;
            row = a;
            a.pid = rs.getLong(0);
            a.corr = rs.getLong(1);
            a.start = rs.getLong(2);
            scan.check(a.pid, a.corr, a.start);
            long aEnd = rs.getLong(3);
            if (aEnd < a.start) invertedTimes++;
            a.end = Math.max(a.start, aEnd);
            a.rawEnd = aEnd;
            a.hasCorr = a.corr != 0; // NULL reads as 0
            a.tid = rs.getLong(4);
            a.nameId = rs.getLong(5);
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

        GpuRow(int kind, OrderedScan scan, RowCursor rs, boolean gpuPid, boolean spanned, int streamColumn) {
            this.kind = kind;
            this.streamColumn = streamColumn;
            this.scan = scan;
            this.rs = rs;
            this.gpuPid = gpuPid;
            this.spanned = spanned;
        }

        boolean read() throws SQLException {
            if (!rs.next()) return false;
            pid = gpuPid ? rs.getLong(0) : 0;
            long c = rs.getLong(1);
            start = rs.getLong(2);
            scan.check(rs.getLong(0), c, start);
            corr = c == 0 && rs.isNull(1) ? -1 : c;
            long gEnd = rs.getLong(3);
            if (gEnd < start) invertedTimes++;
            end = Math.max(start, gEnd);
            device = rs.getInt(4);
            nameId = kind == 0 ? rs.getLong(6) : 0;
            tablePid = rs.getLong(5);
            stream = rs.getLong(streamColumn);
            if (spanned && !(start == 0 && rs.isNull(2)) && !(gEnd == 0 && rs.isNull(3))) {
                spans.add(gpuPid ? pid : tablePid, device, start, gEnd);
            }
            return true;
        }

        long longId() throws SQLException {
            return rs.getLong(7);
        }

        String grid() throws SQLException {
            return rs.getInt(8) + "," + rs.getInt(9) + "," + rs.getInt(10);
        }

        String block() throws SQLException {
            return rs.getInt(11) + "," + rs.getInt(12) + "," + rs.getInt(13);
        }

        /** grid x, y, z, then block x, y, z */
        int dim(int i) throws SQLException {
            return rs.getInt(8 + i);
        }

        long bytes() throws SQLException {
            return rs.getLong(6);
        }

        int copyKind() throws SQLException {
            return rs.getInt(7);
        }

        int srcKind() throws SQLException {
            return rs.getInt(8);
        }

        int dstKind() throws SQLException {
            return rs.getInt(9);
        }

        int memKind() throws SQLException {
            return rs.getInt(7);
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
                    add(0, k, gpuPid, db.col(k, "shortName", "0") + ", " + db.col(k, "demangledName", db.col(k, "shortName", "0"))
                            + ", " + db.col(k, "gridX", "0") + ", " + db.col(k, "gridY", "0") + ", " + db.col(k, "gridZ", "0")
                            + ", " + db.col(k, "blockX", "0") + ", " + db.col(k, "blockY", "0") + ", " + db.col(k, "blockZ", "0"), 8);
                }
                String m = "CUPTI_ACTIVITY_KIND_MEMCPY";
                if (db.has(m)) {
                    add(1, m, gpuPid, db.col(m, "bytes", "0") + ", " + db.col(m, "copyKind", "0") + ", "
                            + db.col(m, "srcKind", "7") + ", " + db.col(m, "dstKind", "7"), 4);
                }
                String s = "CUPTI_ACTIVITY_KIND_MEMSET";
                if (db.has(s)) add(2, s, gpuPid, db.col(s, "bytes", "0") + ", " + db.col(s, "memKind", "7"), 2);
                pick();
            } catch (SQLException | RuntimeException e) {
                close();
                throw e;
            }
        }

        /** @param detailColumns how many columns {@code details} has (the stream id follows them) */
        private void add(int kind, String table, boolean gpuPid, String details, int detailColumns) throws SQLException {
            String pid = gpuPid ? NsysDatabase.pidOf(db.col(table, "globalPid", "0")) : "0";
            String corr = db.col(table, "correlationId", "NULL");
            OrderedScan scan = db.scan(table, null, pid, corr, "start");
            // the GPU busy spans group by the table's own process column, as nsys analyze does
            String spanPid = db.hasColumn(table, "globalPid") ? NsysDatabase.pidOf("globalPid") : "0";
            boolean spanned = db.hasColumn(table, "deviceId") && db.hasColumn(table, "start") && db.hasColumn(table, "end");
            GpuRow row = new GpuRow(kind, scan, scan.open("SELECT " + pid + ", " + corr + ", start, end, "
                    + db.col(table, "deviceId", "0") + ", " + spanPid + ", " + details + ", " + db.col(table, "streamId", "0")
                    + " FROM " + table), gpuPid, spanned, 6 + detailColumns);
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
            for (GpuRow r : live) {
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
            for (GpuRow r : rows) r.rs.close();
        }
    }

    // ---- NVTX stacks -----------------------------------------------------------------------------------

    private void push(Nvtx n) {
        ArrayDeque<NvtxRange> st = stacks.computeIfAbsent(n.tid, k -> new ArrayDeque<>());
        while (!st.isEmpty() && st.peek().end < n.start) close(st.pop());
        NvtxRange parent = st.peek();
        NvtxRange r = new NvtxRange(n.start, n.end, n.marker);
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
            String[] forward = m.direction == Direction.BPROP && m.seq >= 0 ? forwardBySeq.get(m.seq) : null;
            if (forward != null) {
                name = forward[0];
                type = forward[1];
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
        if (m.kind == MarkerText.Kind.ATEN && m.direction == Direction.FPROP && m.seq >= 0 && r.owner != null
                && r.owner.direction != Direction.BPROP) {
            forwardBySeq.put(m.seq, new String[] {r.owner.name, r.owner.type});
        }
        st.push(r);
    }

    private static NvtxRange nearestTrace(ArrayDeque<NvtxRange> st) {
        for (NvtxRange r : st) {
            if (r.marker.kind == MarkerText.Kind.TRACE_MARKER) return r;
            if (r.ownerIsFrameworkOp) return null;
        }
        return null;
    }

    private String opKey(String name, Direction dir, int iteration) {
        String base = name + '\u0001' + dir;
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
        for (ArrayDeque<NvtxRange> st : stacks.values()) {
            while (!st.isEmpty()) close(st.pop());
        }
        stacks.clear();
    }

    private boolean aggregated(int it) {
        return it >= aggStart && it <= aggStop;
    }

    private void finish(OpInstance op) {
        if (aggregated(op.iteration)) ops.add(op);
    }

    private OpInstance ownerOf(Api a) {
        ArrayDeque<NvtxRange> st = stacks.get(a.tid);
        if (st == null) return null;
        // pop ranges of this thread that ended before this call: this thread's later calls start later still
        while (!st.isEmpty() && st.peek().end < a.start) close(st.pop());
        for (NvtxRange r : st) {
            if (r.start <= a.start && a.end <= r.end) return r.owner;
        }
        return null;
    }

    // ---- API calls and GPU work -------------------------------------------------------------------------

    /** Per API name, the stacks of the ops it was called in, weighted by the calls' time. */
    final Map<String, SiteVotes<List<dlproflint.facts.StackFrame>>> apiSites = new TreeMap<>();

    /** Normalized API names by string id: a million calls share a few dozen names, the regex runs once per name. */
    private final Map<Long, String> apiNames = new HashMap<>();

    /**
     * One API call and the GPU work it launched (the GPU rows of the stream with its correlation id, consumed
     * here); returns the GPU stream's next head.
     */
    private GpuRow apiCall(Api a, GpuStreams gp, long pid) throws SQLException {
        String raw = db.string(a.nameId);
        if (raw == null) raw = "unknown";
        String rawName = raw;
        String name = apiNames.computeIfAbsent(a.nameId, id -> ApiNames.normalize(rawName));
        long dur = a.end - a.start;
        int it = iterations.indexOf(a.start);
        boolean agg = aggregated(it);
        if (agg) api.computeIfAbsent(name, k -> new StatAccumulator()).add(dur);
        OpInstance owner = ownerOf(a);
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

    private void orphan(GpuRow g) throws SQLException {
        orphanGpu++;
        int it = iterations.indexOf(g.start);
        String label = g.kind == 0 ? kernelName(g) : g.kind == 1 ? "memcpy" : "memset";
        OpInstance u = unassociated(label, it, g.start, g.start);
        gpuWork(g, u, null, it, "unknown");
        finish(u);
    }

    private String kernelName(GpuRow g) throws SQLException {
        String s = db.string(g.nameId);
        return s == null ? "unknown_kernel" : s;
    }

    /** The catalogue's class of a kernel, once per name id (short name, then the demangled one). */
    private KernelClass kernelClass(GpuRow g) throws SQLException {
        KernelClass c = classByName.get(g.nameId);
        if (c == null) {
            long longId = g.longId();
            c = KernelCatalogue.builtin().classify(kernelName(g), longId == g.nameId ? null : db.string(longId));
            classByName.put(g.nameId, c);
        }
        return c;
    }

    private void gpuWork(GpuRow g, OpInstance owner, Api a, int it, String apiName) throws SQLException {
        long dur = g.end - g.start;
        boolean agg = aggregated(it);
        boolean isKernel = g.kind == 0;
        if (streams != null) {
            // the streams' statistics: work whose launch (else itself) started in the window, launch order per stream
            long launched = a == null ? g.start : a.start;
            if (launched >= streamsFrom && launched < streamsTo) {
                streams.op(g.device, g.tablePid, g.stream, isKernel, g.start, g.end, a == null ? StreamStats.NO_CALL : a.start,
                        a == null ? StreamStats.NO_CALL : a.rawEnd);
            }
        }
        KernelClass kc = isKernel ? kernelClass(g) : KernelClass.UNKNOWN;
        boolean tc = kc.tensorCores();
        if (isKernel) gpuEvidence.kernel(g.device, kc);
        owner.addGpu(g.start, g.end, isKernel, tc);
        if (it >= 0 && it < iterKernels.length) {
            if (isKernel) {
                iterKernels[it]++;
                iterGpu[it] += dur;
                if (tc) iterTc[it] += dur;
            } else {
                iterMem[it] += dur;
            }
        }
        long apiDur = a == null ? 0 : a.end - a.start;
        if (agg) {
            long[] dc = deviceCounts.get(g.device);
            if (dc == null) {
                dlproflint.extract.common.DeviceLimit.admit(deviceCounts.size());
                dc = new long[3];
                deviceCounts.put(g.device, dc);
            }
            if (isKernel) {
                dc[0]++;
                dc[1] += dur;
                String kname = kernelName(g);
                KernelTable.Row row = kernels.find(owner.key, kname, g.device);
                if (row == null) {
                    long longId = g.longId();
                    String longName = longId == g.nameId ? kname : db.string(longId);
                    row = kernels.create(owner.key, kname, longName == null ? kname : longName, g.device, tc,
                            kc.precision(), g.grid(), g.block());
                }
                row.add(dur, apiDur, a != null);
                iterationKernels.add(it, row.index(), dur, g.start);
                kernelMix.add(kname, kc, dur);
                if (tc || TensorCores.opTypeEligible(owner.type)) eligibleKernelNs += dur;
                if (tc) tcKernelNs += dur;
            } else {
                dc[2]++;
                memory(g, apiName, dur);
            }
        }
        if (sink != null && agg) {
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

    private void memory(GpuRow g, String apiName, long dur) throws SQLException {
        if (g.kind == 1) {
            String ck = MemoryKinds.copyKind(g.copyKind());
            String src = MemoryKinds.memKind(g.srcKind());
            String dst = MemoryKinds.memKind(g.dstKind());
            String key = apiName + '|' + ck + '|' + src + '|' + dst;
            MemAgg m = memcpy.computeIfAbsent(key, k -> new MemAgg());
            m.api = apiName;
            m.copyKind = ck;
            m.src = src;
            m.dst = dst;
            m.count++;
            long bytes = g.bytes();
            m.bytes += bytes;
            if (MemoryKinds.hostToDevice(ck) && bytes <= MemoryKinds.SMALL_HTOD_BYTES) m.small++;
            m.gpu.add(dur);
        } else {
            String mk = MemoryKinds.memKind(g.memKind());
            String key = apiName + '|' + mk;
            MemAgg m = memset.computeIfAbsent(key, k -> new MemAgg());
            m.api = apiName;
            m.copyKind = mk;
            m.count++;
            m.bytes += g.bytes();
            m.gpu.add(dur);
        }
    }

    List<ApiStat> apiStats() {
        List<ApiStat> out = new ArrayList<>();
        for (Map.Entry<String, StatAccumulator> e : api.entrySet()) {
            out.add(new ApiStat(e.getKey(), ApiNames.category(e.getKey()), e.getValue().toStat()));
        }
        return out;
    }

    List<MemcpyStat> memcpyStats() {
        List<MemcpyStat> out = new ArrayList<>();
        for (MemAgg m : memcpy.values()) {
            out.add(new MemcpyStat(m.api, m.copyKind, m.src, m.dst, m.count, m.bytes, m.gpu.toStat(), m.small));
        }
        return out;
    }

    List<MemsetStat> memsetStats() {
        List<MemsetStat> out = new ArrayList<>();
        for (MemAgg m : memset.values()) out.add(new MemsetStat(m.api, m.copyKind, m.count, m.bytes, m.gpu.toStat()));
        return out;
    }
}
