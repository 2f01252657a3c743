package dlproflint.extract.nsys;

import dlproflint.facts.InstanceSink;
import dlproflint.extract.common.ApiNames;
import dlproflint.extract.common.IterationKernelTable;
import dlproflint.extract.common.Iterations;
import dlproflint.extract.common.KernelTable;
import dlproflint.extract.common.MemoryKinds;
import dlproflint.extract.common.OpInstance;
import dlproflint.extract.common.OpTable;
import dlproflint.extract.common.SiteVotes;
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

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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

    private static String pidExpr(String col) {
        return "((" + col + " >> 24) & 16777215)";
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
        long corr;
        long nameId;
        boolean hasCorr;
    }

    private static final class Gpu {
        int kind; // 0 kernel, 1 memcpy, 2 memset
        long pid;
        long corr;
        long start;
        long end;
        int device;
        long nameId;
        long longId;
        int gx, gy, gz, bx, by, bz;
        long bytes;
        int copyKind;
        int src;
        int dst;
        int memKind;
    }

    void run() throws SQLException {
        boolean gpuPid = true;
        for (String t : List.of("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET")) {
            if (db.has(t) && !db.hasColumn(t, "globalPid")) gpuPid = false;
        }
        List<Statement> gpuStatements = new ArrayList<>();
        try (Statement sn = db.connection().createStatement();
             Statement sa = db.connection().createStatement()) {
            ResultSet nv = nvtxStream(sn, gpuPid);
            ResultSet ap = apiStream(sa, gpuPid);
            GpuStreams gp = new GpuStreams(gpuStatements, gpuPid);
            Nvtx n = nextNvtx(nv);
            Api a = nextApi(ap);
            Gpu g = gp.next();
            Api prev = null;
            while (n != null || a != null || g != null) {
                long pid = Long.MAX_VALUE;
                if (n != null) pid = Math.min(pid, n.pid);
                if (a != null) pid = Math.min(pid, a.pid);
                if (g != null) pid = Math.min(pid, g.pid);
                while (a != null && a.pid == pid) {
                    while (n != null && n.pid == pid && n.start <= a.start) {
                        push(n);
                        n = nextNvtx(nv);
                    }
                    while (g != null && g.pid == pid && (!a.hasCorr || g.corr < a.corr)) {
                        if (prev != null && prev.pid == pid && prev.hasCorr && g.corr == prev.corr) {
                            duplicateCorrelation++;
                        }
                        orphan(g);
                        g = gp.next();
                    }
                    List<Gpu> work = null;
                    while (a.hasCorr && g != null && g.pid == pid && g.corr == a.corr) {
                        if (work == null) work = new ArrayList<>(2);
                        work.add(g);
                        g = gp.next();
                    }
                    apiCall(a, work);
                    prev = a;
                    a = nextApi(ap);
                }
                while (n != null && n.pid == pid) {
                    push(n);
                    n = nextNvtx(nv);
                }
                while (g != null && g.pid == pid) {
                    orphan(g);
                    g = gp.next();
                }
                flushAll();
            }
        } finally {
            for (Statement st : gpuStatements) st.close();
        }
    }

    private ResultSet nvtxStream(Statement st, boolean gpuPid) throws SQLException {
        if (!db.has("NVTX_EVENTS") || !db.hasColumn("NVTX_EVENTS", "start")) return null;
        String tid = db.col("NVTX_EVENTS", "globalTid", "0");
        String type = db.col("NVTX_EVENTS", "eventType", "59");
        String where = type + " IN (34, " + NvtxScan.RANGE_TYPES + ")";
        String pid = gpuPid ? pidExpr(tid) : "0";
        return st.executeQuery("SELECT " + pid + ", " + tid + ", start, end, " + NvtxScan.textExpr(db) + ", " + type
                + " FROM NVTX_EVENTS WHERE " + where + db.orderBy("NVTX_EVENTS", where, pid, "start", "end DESC"));
    }

    private ResultSet apiStream(Statement st, boolean gpuPid) throws SQLException {
        String t = "CUPTI_ACTIVITY_KIND_RUNTIME";
        if (!db.has(t)) return null;
        String tid = db.col(t, "globalTid", "0");
        String pid = gpuPid ? pidExpr(tid) : "0";
        String corr = db.col(t, "correlationId", "NULL");
        return st.executeQuery("SELECT " + pid + ", " + tid + ", start, end, " + corr + ", " + db.col(t, "nameId", "0")
                + " FROM " + t + db.orderBy(t, null, pid, corr, "start"));
    }

    /**
     * Kernels, memcpys and memsets, each ordered by (pid, correlationId, start), merged here rather than by a
     * UNION ALL ... ORDER BY so each table is sorted only if it is not already in that order.
     */
    private final class GpuStreams {
        private final List<ResultSet> sets = new ArrayList<>();
        private final List<Gpu> heads = new ArrayList<>();
        private final boolean gpuPid;

        GpuStreams(List<Statement> statements, boolean gpuPid) throws SQLException {
            this.gpuPid = gpuPid;
            String k = "CUPTI_ACTIVITY_KIND_KERNEL";
            if (db.has(k)) {
                add(statements, k, "SELECT 0, " + pid(k) + ", " + corr(k) + ", start, end, " + db.col(k, "deviceId", "0")
                        + ", " + db.col(k, "shortName", "0") + ", " + db.col(k, "demangledName", db.col(k, "shortName", "0"))
                        + ", " + db.col(k, "gridX", "0") + ", " + db.col(k, "gridY", "0") + ", " + db.col(k, "gridZ", "0")
                        + ", " + db.col(k, "blockX", "0") + ", " + db.col(k, "blockY", "0") + ", " + db.col(k, "blockZ", "0")
                        + ", 0, 0, 0, 0, 0 FROM " + k);
            }
            String m = "CUPTI_ACTIVITY_KIND_MEMCPY";
            if (db.has(m)) {
                add(statements, m, "SELECT 1, " + pid(m) + ", " + corr(m) + ", start, end, " + db.col(m, "deviceId", "0")
                        + ", 0, 0, 0, 0, 0, 0, 0, 0, " + db.col(m, "bytes", "0") + ", " + db.col(m, "copyKind", "0") + ", "
                        + db.col(m, "srcKind", "7") + ", " + db.col(m, "dstKind", "7") + ", 0 FROM " + m);
            }
            String s = "CUPTI_ACTIVITY_KIND_MEMSET";
            if (db.has(s)) {
                add(statements, s, "SELECT 2, " + pid(s) + ", " + corr(s) + ", start, end, " + db.col(s, "deviceId", "0")
                        + ", 0, 0, 0, 0, 0, 0, 0, 0, " + db.col(s, "bytes", "0") + ", 0, 0, 0, " + db.col(s, "memKind", "7")
                        + " FROM " + s);
            }
        }

        private String pid(String t) {
            return gpuPid ? pidExpr(db.col(t, "globalPid", "0")) : "0";
        }

        private String corr(String t) {
            return db.col(t, "correlationId", "NULL");
        }

        private void add(List<Statement> statements, String table, String select) throws SQLException {
            Statement st = db.connection().createStatement();
            statements.add(st);
            ResultSet rs = st.executeQuery(select + db.orderBy(table, null, pid(table), corr(table), "start"));
            sets.add(rs);
            heads.add(nextGpu(rs, gpuPid));
        }

        Gpu next() {
            int best = -1;
            for (int i = 0; i < heads.size(); i++) {
                Gpu h = heads.get(i);
                if (h == null) continue;
                if (best < 0 || before(h, heads.get(best))) best = i;
            }
            if (best < 0) return null;
            Gpu g = heads.get(best);
            try {
                heads.set(best, nextGpu(sets.get(best), gpuPid));
            } catch (SQLException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
            return g;
        }

        private boolean before(Gpu a, Gpu b) {
            if (a.pid != b.pid) return a.pid < b.pid;
            if (a.corr != b.corr) return a.corr < b.corr;
            return a.start < b.start;
        }
    }

    /** The next range (marks are counted, then skipped: they have no duration). */
    private Nvtx nextNvtx(ResultSet rs) throws SQLException {
        while (true) {
            if (rs == null || !rs.next()) return null;
            int type = rs.getInt(7);
            if (type == 34) {
                String text = rs.getString(5);
                long textId = rs.getLong(6);
                boolean registered = text == null && !rs.wasNull();
                if (registered) text = db.string(textId);
                markers.observe(MarkerText.of(text, registered), 34, registered);
                continue;
            }
            return range(rs, type);
        }
    }

    private Nvtx range(ResultSet rs, int type) throws SQLException {
        Nvtx n = new Nvtx();
        n.pid = rs.getLong(1);
        n.tid = rs.getLong(2);
        n.start = rs.getLong(3);
        long e = rs.getLong(4);
        if (rs.wasNull()) {
            unclosedRanges++;
            e = profileEnd;
        }
        if (e < n.start) invertedTimes++;
        n.end = Math.max(n.start, e);
        String text = rs.getString(5);
        long textId = rs.getLong(6);
        boolean registered = text == null && !rs.wasNull();
        if (registered) text = db.string(textId);
        n.marker = MarkerText.of(text, registered);
        markers.observe(n.marker, type, registered);
        return n;
    }

    private Api nextApi(ResultSet rs) throws SQLException {
        if (rs == null || !rs.next()) return null;
        Api a = new Api();
        a.pid = rs.getLong(1);
        a.tid = rs.getLong(2);
        a.start = rs.getLong(3);
        long aEnd = rs.getLong(4);
        if (aEnd < a.start) invertedTimes++;
        a.end = Math.max(a.start, aEnd);
        a.corr = rs.getLong(5);
        a.hasCorr = !rs.wasNull() && a.corr != 0;
        a.nameId = rs.getLong(6);
        return a;
    }

    private Gpu nextGpu(ResultSet rs, boolean gpuPid) throws SQLException {
        if (rs == null || !rs.next()) return null;
        Gpu g = new Gpu();
        g.kind = rs.getInt(1);
        g.pid = gpuPid ? rs.getLong(2) : 0;
        g.corr = rs.getLong(3);
        if (rs.wasNull()) g.corr = -1;
        g.start = rs.getLong(4);
        long gEnd = rs.getLong(5);
        if (gEnd < g.start) invertedTimes++;
        g.end = Math.max(g.start, gEnd);
        g.device = rs.getInt(6);
        g.nameId = rs.getLong(7);
        g.longId = rs.getLong(8);
        g.gx = rs.getInt(9);
        g.gy = rs.getInt(10);
        g.gz = rs.getInt(11);
        g.bx = rs.getInt(12);
        g.by = rs.getInt(13);
        g.bz = rs.getInt(14);
        g.bytes = rs.getLong(15);
        g.copyKind = rs.getInt(16);
        g.src = rs.getInt(17);
        g.dst = rs.getInt(18);
        g.memKind = rs.getInt(19);
        return g;
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

    private void apiCall(Api a, List<Gpu> work) throws SQLException {
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
            if (work != null) for (Gpu g : work) gpuWork(g, owner, a, it, name);
            return;
        }
        // DLProf: CUDA work outside every range becomes unassociated_<kernel or API name>, type = that name
        if (work == null) {
            OpInstance u = unassociated(raw, it, a.start, a.end);
            u.apiNs = dur;
            finish(u);
            return;
        }
        for (Gpu g : work) {
            String label = g.kind == 0 ? kernelName(g) : raw;
            OpInstance u = unassociated(label, it, a.start, a.end);
            u.apiNs = dur;
            gpuWork(g, u, a, it, name);
            finish(u);
        }
    }

    private OpInstance unassociated(String label, int it, long start, long end) {
        String name = "unassociated_" + label;
        return new OpInstance(opKey(name, Direction.NA, it), name, label, Direction.NA, it, start, end);
    }

    private void orphan(Gpu g) throws SQLException {
        orphanGpu++;
        int it = iterations.indexOf(g.start);
        String label = g.kind == 0 ? kernelName(g) : g.kind == 1 ? "memcpy" : "memset";
        OpInstance u = unassociated(label, it, g.start, g.start);
        gpuWork(g, u, null, it, "unknown");
        finish(u);
    }

    private String kernelName(Gpu g) throws SQLException {
        String s = db.string(g.nameId);
        return s == null ? "unknown_kernel" : s;
    }

    /** The catalogue's class of a kernel, once per name id (short name, then the demangled one). */
    private KernelClass kernelClass(Gpu g) throws SQLException {
        KernelClass c = classByName.get(g.nameId);
        if (c == null) {
            c = KernelCatalogue.builtin().classify(kernelName(g), g.longId == g.nameId ? null : db.string(g.longId));
            classByName.put(g.nameId, c);
        }
        return c;
    }

    private void gpuWork(Gpu g, OpInstance owner, Api a, int it, String apiName) throws SQLException {
        long dur = g.end - g.start;
        boolean agg = aggregated(it);
        boolean isKernel = g.kind == 0;
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
            long[] dc = deviceCounts.computeIfAbsent(g.device, d -> new long[3]);
            if (isKernel) {
                dc[0]++;
                dc[1] += dur;
                String kname = kernelName(g);
                String longName = g.longId == g.nameId ? kname : db.string(g.longId);
                int row = kernels.add(owner.key, kname, longName == null ? kname : longName, g.device, tc,
                        kc.precision(), dur, apiDur, a != null, g.gx + "," + g.gy + "," + g.gz,
                        g.bx + "," + g.by + "," + g.bz);
                iterationKernels.add(it, row, dur, g.start);
                kernelMix.add(kname, kc, dur);
                if (tc || TensorCores.opTypeEligible(owner.type)) eligibleKernelNs += dur;
                if (tc) tcKernelNs += dur;
            } else {
                dc[2]++;
                memory(g, apiName, dur);
            }
        }
        if (sink != null && agg) {
            String kname = isKernel ? kernelName(g) : g.kind == 1 ? "[CUDA memcpy " + MemoryKinds.copyKind(g.copyKind) + "]"
                    : "[CUDA memset]";
            String longName = isKernel ? db.string(g.longId) : kname;
            sink.accept(new KernelInstance(isKernel ? "kernel" : g.kind == 1 ? "memcpy" : "memset", it,
                    opIds.getOrDefault(owner.key, owner.key), owner.name, owner.direction, owner.type, kname,
                    longName == null ? kname : longName, g.device, g.start, dur, a == null ? 0 : a.start, apiDur, tc,
                    g.gx, g.gy, g.gz, g.bx, g.by, g.bz, owner.dataType == null ? "" : owner.dataType,
                    owner.inputShapes == null ? "" : owner.inputShapes, ""));
        }
    }

    private void memory(Gpu g, String apiName, long dur) {
        if (g.kind == 1) {
            String ck = MemoryKinds.copyKind(g.copyKind);
            String src = MemoryKinds.memKind(g.src);
            String dst = MemoryKinds.memKind(g.dst);
            String key = apiName + '|' + ck + '|' + src + '|' + dst;
            MemAgg m = memcpy.computeIfAbsent(key, k -> new MemAgg());
            m.api = apiName;
            m.copyKind = ck;
            m.src = src;
            m.dst = dst;
            m.count++;
            m.bytes += g.bytes;
            if (MemoryKinds.hostToDevice(ck) && g.bytes <= MemoryKinds.SMALL_HTOD_BYTES) m.small++;
            m.gpu.add(dur);
        } else {
            String mk = MemoryKinds.memKind(g.memKind);
            String key = apiName + '|' + mk;
            MemAgg m = memset.computeIfAbsent(key, k -> new MemAgg());
            m.api = apiName;
            m.copyKind = mk;
            m.count++;
            m.bytes += g.bytes;
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
