package dlproflint.extract.nsys;

import dlproflint.detail.MemoryCurve;
import dlproflint.detail.ProfileDetail;
import dlproflint.detail.TimelineWindow;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ReadOptions;
import dlproflint.extract.common.ApiNames;
import dlproflint.extract.common.DetailWindow;
import dlproflint.extract.common.ReadDeadline;
import dlproflint.extract.common.SpanCollector;
import dlproflint.extract.kernels.KernelCatalogue;
import dlproflint.extract.kernels.KernelClass;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.ProfileFacts;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The HTML views' read of an Nsight Systems export (made only for an HTML report): the kernels, copies, memsets and
 * CUDA API launches and synchronisations of the {@link DetailWindow}, by SQL over the window (each query limited to
 * the window's span cap), and the device memory curve from {@code CUDA_GPU_MEMORY_USAGE_EVENTS} (nsys
 * {@code --cuda-memory-usage=true}): the running sum of cudaMalloc and cudaFree per device, with the API call at the
 * peak. nsys records no {@code nn.Module} ranges, so there is no module time.
 */
final class NsysDetail {
    private static final String MEMORY = "CUDA_GPU_MEMORY_USAGE_EVENTS";

    private NsysDetail() {
    }

    static ProfileDetail read(Path file, ReadOptions options, ProfileFacts facts) throws ProfileException {
        ReadOptions opts = options == null ? ReadOptions.DEFAULT : options;
        DetailWindow window = DetailWindow.of(facts);
        try (NsysDatabase db = NsysDatabase.open(file, ReadDeadline.start(file, opts))) {
            try {
                SpanCollector spans = new SpanCollector(window);
                gpu(db, spans, window, "CUPTI_ACTIVITY_KIND_KERNEL", TimelineWindow.Kind.KERNEL);
                gpu(db, spans, window, "CUPTI_ACTIVITY_KIND_MEMCPY", TimelineWindow.Kind.MEMCPY);
                gpu(db, spans, window, "CUPTI_ACTIVITY_KIND_MEMSET", TimelineWindow.Kind.MEMSET);
                api(db, spans, window);
                MemoryCurve memory = memory(db, facts);
                return new ProfileDetail(spans.build(), memory, List.of(),
                        memory != null ? null : "The export has no CUDA memory usage events: record with nsys profile "
                                + "--cuda-memory-usage=true (dlprof-lint run --nsys does).",
                        "Nsight Systems records no nn.Module ranges; the Module view needs a PyTorch profiler trace recorded "
                                + "with with_modules=True.");
            } catch (SQLException e) {
                throw db.fail("reading the timeline window", e);
            }
        }
    }

    private static String between(DetailWindow w) {
        return w.steps().isEmpty() ? "" : " AND t.start <= " + w.endNs() + " AND t.end >= " + w.startNs();
    }

    private static void gpu(NsysDatabase db, SpanCollector spans, DetailWindow w, String table, TimelineWindow.Kind kind)
            throws SQLException {
        if (!db.has(table)) return;
        boolean kernel = kind == TimelineWindow.Kind.KERNEL;
        String name = kernel ? "t." + db.col(table, "shortName", "demangledName") : "NULL";
        String stream = db.col(table, "streamId", "0");
        String sql = "SELECT t.start, t.end, t.deviceId, t." + stream + ", " + name + " FROM " + table + " t WHERE t.start IS NOT NULL"
                + " AND t.end IS NOT NULL" + between(w) + " ORDER BY t.start LIMIT " + (TimelineWindow.MAX_SPANS + 1);
        KernelCatalogue catalogue = KernelCatalogue.builtin();
        Map<String, String> categories = new HashMap<>();
        try (PreparedStatement st = db.connection().prepareStatement(sql); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                String label = kernel ? db.string(rs.getLong(5)) : kind == TimelineWindow.Kind.MEMCPY ? "memcpy" : "memset";
                String category = !kernel ? null : categories.computeIfAbsent(label == null ? "" : label, n -> {
                    KernelClass k = catalogue.classify(n);
                    return k.tensorCores() ? "tensor-core" : k.family() == null ? "other" : k.family();
                });
                spans.add(spans.gpuLane(rs.getInt(3), rs.getLong(4)), rs.getLong(1), rs.getLong(2), kind, label, category);
            }
        }
    }

    /** Kernel and copy launches and synchronising calls of the CUDA API, per host thread. */
    private static void api(NsysDatabase db, SpanCollector spans, DetailWindow w) throws SQLException {
        String table = "CUPTI_ACTIVITY_KIND_RUNTIME";
        if (!db.has(table)) return;
        String sql = "SELECT t.start, t.end, t.globalTid, t.nameId FROM " + table + " t WHERE t.start IS NOT NULL AND t.end IS NOT NULL"
                + between(w) + " ORDER BY t.start";
        Map<Long, String> kinds = new HashMap<>();
        int kept = 0;
        try (PreparedStatement st = db.connection().prepareStatement(sql); ResultSet rs = st.executeQuery()) {
            while (rs.next() && kept <= 4 * TimelineWindow.MAX_SPANS) {
                long nameId = rs.getLong(4);
                String kind = kinds.computeIfAbsent(nameId, id -> {
                    try {
                        String api = ApiNames.normalize(db.string(id));
                        String c = ApiNames.category(api);
                        return c.equals("sync") || ApiNames.synchronizing(api) ? "S" + api
                                : c.equals("launch") || c.equals("memcpy") || c.equals("memset") ? "L" + api : "";
                    } catch (SQLException e) {
                        return "";
                    }
                });
                if (kind.isEmpty()) continue;
                long tid = rs.getLong(3);
                spans.add(spans.threadLane(String.valueOf(tid & 0xFFFFFF)), rs.getLong(1), rs.getLong(2),
                        kind.charAt(0) == 'S' ? TimelineWindow.Kind.SYNC : TimelineWindow.Kind.LAUNCH, kind.substring(1), null);
                kept++;
            }
        }
    }

    /** The running sum of allocations and frees per device, and the API call that reached each device's peak. */
    private static MemoryCurve memory(NsysDatabase db, ProfileFacts facts) throws SQLException {
        if (!db.has(MEMORY)) return null;
        String op = db.col(MEMORY, "memoryOperationType", null);
        if (op == null || !db.hasColumn(MEMORY, "bytes") || !db.hasColumn(MEMORY, "start")) return null;
        String device = db.col(MEMORY, "deviceId", "0");
        boolean correlated = db.hasColumn(MEMORY, "correlationId") && db.has("CUPTI_ACTIVITY_KIND_RUNTIME");
        String sql = "SELECT m.start, m." + device + ", m.bytes, m." + op + ", " + (correlated
                ? "(SELECT r.nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = m.correlationId LIMIT 1)" : "NULL")
                + " FROM " + MEMORY + " m WHERE m.start IS NOT NULL ORDER BY m.start";
        Map<Integer, List<long[]>> byDevice = new TreeMap<>();
        try (PreparedStatement st = db.connection().prepareStatement(sql); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                long bytes = rs.getLong(3);
                long sign = rs.getInt(4) == 1 ? -1 : 1; // ENUM_CUDA_DEV_MEM_EVENT_OPER: 0 allocation, 1 deallocation
                long nameId = rs.getLong(5);
                if (rs.wasNull()) nameId = -1;
                byDevice.computeIfAbsent(rs.getInt(2), d -> new ArrayList<>()).add(new long[] {rs.getLong(1), sign * bytes, nameId});
            }
        }
        if (byDevice.isEmpty()) return null;
        Map<Integer, Long> capacity = new HashMap<>();
        for (GpuInfo g : facts.gpus()) capacity.put(g.deviceId(), g.totalMemoryBytes());
        List<MemoryCurve.Device> devices = new ArrayList<>();
        for (Map.Entry<Integer, List<long[]>> e : byDevice.entrySet()) {
            List<long[]> rows = e.getValue();
            int n = rows.size();
            long[] t = new long[n];
            long[] a = new long[n];
            long total = 0;
            int peak = 0;
            for (int i = 0; i < n; i++) {
                total = Math.max(0, total + rows.get(i)[1]);
                t[i] = rows.get(i)[0];
                a[i] = total;
                if (a[i] > a[peak]) peak = i;
            }
            long[][] r = DetailWindow.reduce(t, a, a, n);
            String peakOp = rows.get(peak)[2] < 0 ? null : db.string(rows.get(peak)[2]);
            devices.add(new MemoryCurve.Device(e.getKey(), r[0], r[1], r[2], t[peak], a[peak], a[peak], peakOp,
                    capacity.getOrDefault(e.getKey(), 0L), n));
        }
        return new MemoryCurve("cudaMalloc and cudaFree as nsys recorded them (--cuda-memory-usage): with PyTorch's caching "
                + "allocator this is reserved memory, so allocated and reserved are one curve", devices);
    }
}
