package dlproflint.extract.dldb;

import dlproflint.facts.MeanSd;
import dlproflint.extract.ReadOptions;
import dlproflint.extract.common.Iterations;
import dlproflint.extract.common.StepGpuSweep;
import dlproflint.extract.common.StepWindow;
import dlproflint.extract.common.ApiNames;
import dlproflint.extract.common.MemoryKinds;
import dlproflint.extract.kernels.KernelCatalogue;
import dlproflint.extract.kernels.KernelClass;
import dlproflint.extract.kernels.KernelMix;
import dlproflint.facts.ApiStat;
import dlproflint.facts.Direction;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.Iteration;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.KernelFact;
import dlproflint.facts.Marker;
import dlproflint.facts.MemcpyStat;
import dlproflint.facts.MemsetStat;
import dlproflint.facts.ModelConfig;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.StackFrame;
import dlproflint.facts.Stat;
import dlproflint.facts.StatAccumulator;
import dlproflint.facts.SystemInfo;
import dlproflint.facts.TimeBreakdown;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Maps one DLProf aggregation ({@code aggr_id}, the latest in the file) to facts. DLProf's own
 * numbers are kept as they are: its summary percentages, its op statistics, its iteration split.
 * Kernels are classified by the kernel catalogue like every other input (DLProf's own {@code uses_tc}
 * decides only for names the catalogue does not know).
 *
 * <p>Databases differ by how DLProf made them: a live capture ({@code dlprof python train.py}) records
 * the GPU memory in use, a re-analysis ({@code dlprof --database nsys.sqlite}) does not; TensorFlow 1
 * mode and some live captures keep no kernel rows ({@code read_only_kernels} empty) while DLProf's
 * aggregates (op nodes, kernel summaries, per-device GPU utilisation) still hold what it measured. The
 * loader falls back on those aggregates, and on a missing table or column (an older or partial
 * database) reads what is there and names what is not.
 */
final class DlprofFactsLoader {
    private final Connection c;
    private final Path file;
    private final String version;
    private final ReadOptions options;
    private final DldbSchema schema;
    private final ProfileFacts.Builder out = ProfileFacts.builder();
    private final List<OpFact> opFacts = new ArrayList<>();
    private boolean sawStack;
    private final Map<Long, String> dictionary = new HashMap<>();
    private long aggrId;
    private boolean kernelRows;

    DlprofFactsLoader(Connection c, Path file, String version, ReadOptions options) throws SQLException {
        this.c = c;
        this.file = file;
        this.version = version;
        this.options = options;
        this.schema = new DldbSchema(c);
    }

    ProfileFacts load() throws SQLException {
        if (schema.has("dictionary")) {
            query("SELECT id, string FROM dictionary", rs -> dictionary.put(rs.getLong(1), rs.getString(2)));
        }
        aggrId = latestAggregation();
        kernelRows = schema.has("read_only_kernels") && longValue("SELECT COUNT(*) FROM read_only_kernels", 0) > 0;
        String framework = system();
        long wall = summary();
        gpus(wall);
        Map<Long, String> opIds = ops();
        out.callSites(sawStack ? new dlproflint.facts.CallSites("DLProf database stack traces", null,
                dlproflint.extract.common.TrainingLoop.site(opFacts), Map.of()) : dlproflint.facts.CallSites.none(null));
        kernels(opIds);
        apis();
        memory();
        modelConfig(framework);
        warnings();
        return out.build();
    }

    private long latestAggregation() throws SQLException {
        for (String t : List.of("model_summary", "op_nodes", "aggregations")) {
            if (schema.has(t) && schema.hasColumn(t, t.equals("aggregations") ? "id" : "aggr_id")) {
                long a = longValue("SELECT MAX(" + (t.equals("aggregations") ? "id" : "aggr_id") + ") FROM " + t, -1);
                if (a >= 0) return a;
            }
        }
        return 1;
    }

    /** {@code WHERE aggr_id = N} for tables that have the column (older layouts may not). */
    private String aggr(String table, String alias) throws SQLException {
        return schema.hasColumn(table, "aggr_id") ? " " + alias + ".aggr_id = " + aggrId : " 1";
    }

    private void warnings() throws SQLException {
        boolean opNodes = schema.has("op_nodes") && longValue("SELECT COUNT(*) FROM op_nodes", 0) > 0;
        if (!kernelRows && opNodes) {
            out.warning("no-kernel-data", "DLProf recorded no kernel-level data (read_only_kernels is empty, as in its "
                    + "TensorFlow 1 mode and some live captures): per-launch times and the iteration report are "
                    + "unavailable; DLProf's own op, kernel and GPU aggregates are used");
        }
        if (options.keyNode() != null || options.iterStart() != null || options.iterStop() != null) {
            out.warning("dlprof-db-fixed-aggregation", "a DLProf database holds DLProf's own iteration split and "
                    + "aggregation range; --key-node/--iter-start/--iter-stop need the nsys profile it was made from");
        }
        if (!schema.missing().isEmpty()) {
            out.warning("dlprof-db-partial", "tables or columns absent from this DLProf " + version + " database (an older "
                    + "DLProf or a partial write): " + String.join(", ", schema.missing())
                    + "; what they hold is unknown and the rules that need it stay silent");
        }
    }

    // ------------------------------------------------------------------ system

    private String system() throws SQLException {
        String[] sys = new String[8];
        String t = "read_only_system_config";
        if (schema.has(t)) {
            List<String> cols = List.of("cpu_model", "driver_version", "framework", "cuda_version", "cudnn_version",
                    "nsys_version", "dlprof_version", "mode_string");
            StringBuilder sql = new StringBuilder("SELECT ");
            for (int i = 0; i < cols.size(); i++) sql.append(i == 0 ? "" : ", ").append(schema.col(t, "s", cols.get(i), "NULL"));
            query(sql + " FROM " + t + " s ORDER BY s.id LIMIT 1", rs -> {
                for (int i = 0; i < sys.length; i++) sys[i] = emptyToNull(rs.getString(i + 1));
            });
        }
        String fw = sys[2];
        String framework = null;
        String fwVersion = null;
        if (fw != null) {
            String lower = fw.toLowerCase(Locale.ROOT);
            framework = lower.startsWith("pytorch") ? "pytorch" : lower.startsWith("tensorflow") ? "tensorflow"
                    : lower.startsWith("tensorrt") ? "tensorrt" : lower.split(" ")[0];
            int sp = fw.indexOf(' ');
            fwVersion = sp > 0 ? fw.substring(sp + 1).trim() : null;
        } else if (sys[7] != null) {
            // DLProf's --mode (pytorch, tensorflow1, tensorflow2, simple) when the framework was not recorded
            String mode = sys[7].toLowerCase(Locale.ROOT);
            framework = mode.startsWith("pytorch") ? "pytorch" : mode.startsWith("tensorflow") ? "tensorflow" : null;
        }
        out.system(new SystemInfo(sys[0], null, sys[1], sys[3], sys[4], framework, fwVersion, -1, 0));
        return framework;
    }

    /** Model summary, iterations and breakdown; returns the wall time. */
    private long summary() throws SQLException {
        long[] wall = {0};
        double[] pct = new double[9];
        int[] iter = {0, 0, -1};
        long[] keyNode = {0};
        String t = "model_summary";
        if (schema.has(t)) {
            List<String> cols = List.of("wall_time", "tc_utilization", "gpu_utilization", "tc_duration_pct",
                    "non_tc_duration_pct", "memory_duration_pct", "dataloader_duration_pct", "io_duration_pct",
                    "cpu_duration_pct", "other_duration_pct", "iter_total", "iter_start", "iter_stop", "key_node_id");
            StringBuilder sql = new StringBuilder("SELECT ");
            for (int i = 0; i < cols.size(); i++) {
                sql.append(i == 0 ? "" : ", ").append(schema.col(t, "m", cols.get(i), cols.get(i).equals("iter_stop") ? "-1" : "0"));
            }
            query(sql + " FROM " + t + " m WHERE" + aggr(t, "m") + " ORDER BY m.id LIMIT 1", rs -> {
                wall[0] = rs.getLong(1);
                for (int i = 0; i < 9; i++) pct[i] = rs.getDouble(i + 2);
                iter[0] = rs.getInt(11);
                iter[1] = rs.getInt(12);
                iter[2] = rs.getInt(13);
                keyNode[0] = rs.getLong(14);
            });
        }
        List<Iteration> list = iterations(iter);
        if (wall[0] <= 0 && !list.isEmpty()) wall[0] = list.get(list.size() - 1).endNs() - list.get(0).startNs();
        out.profile(new ProfileInfo(file.toString(), "dlprof-db", "DLProf " + version, version, 0, wall[0]));
        // DLProf's stored shares (TimeBreakdown holds them to 0-100)
        out.breakdown(new TimeBreakdown(wall[0], pct[0], pct[1], pct[2], pct[3], pct[4], pct[5], pct[6], pct[7], pct[8]));
        int total = Math.max(iter[0], list.size());
        int start = iter[1];
        int stop = iter[2] < 0 ? total - 1 : iter[2];
        String binding = null;
        if (!list.isEmpty()) {
            // DLProf's steps measured by the same layer as every format: its kernels by the iteration that launched them
            GpuSide side = gpuSide(list);
            list = side.iterations();
            binding = side.binding();
        }
        list.forEach(out::iteration);
        MeanSd aggregated = new MeanSd();
        for (Iteration it : list) {
            if (it.aggregated()) aggregated.add(it.durationNs());
        }
        String key = emptyToNull(dictionary.get(keyNode[0]));
        // N occurrences of the key node split the profile into N+1 iterations: one iteration = not found
        boolean found = total > 1;
        IterationSummary summary = new IterationSummary(key, found, "dlprof", total, start, stop, aggregated.mean(),
                aggregated.sd(), found ? IterationSummary.DLPROF : IterationSummary.NONE, List.of());
        out.iterationSummary(found ? summary.withWindow(binding, IterationSummary.DLPROF_RANGE, List.of(), "", start, stop,
                aggregated.mean(), aggregated.sd()) : summary);
        return wall[0];
    }

    /** DLProf's iterations measured on their GPU side, and the side that bound them. */
    private record GpuSide(List<Iteration> iterations, String binding) {
    }

    /**
     * Each iteration's GPU span and busy time from DLProf's own kernel → iteration table ({@code kernel_iteration_node}:
     * the iteration that launched each kernel), through the measurement layer ({@link StepGpuSweep},
     * {@link StepWindow}); DLProf's aggregation range stays DLProf's.
     */
    private GpuSide gpuSide(List<Iteration> list) throws SQLException {
        int n = list.size();
        long[] starts = new long[n];
        long[] stops = new long[n];
        Map<Integer, Integer> index = new HashMap<>();
        for (int i = 0; i < n; i++) {
            starts[i] = list.get(i).startNs();
            stops[i] = Math.max(starts[i], list.get(i).endNs());
            if (i > 0 && starts[i] < starts[i - 1]) return new GpuSide(list, null); // out of time order: left as stored
            index.put(list.get(i).index(), i);
        }
        Iterations its = Iterations.ofWindows(starts, stops);
        StepGpuSweep sweep = new StepGpuSweep(n);
        String k = "kernel_iteration_node";
        if (kernelRows && schema.has(k) && schema.hasColumn(k, "read_only_kernel_id") && schema.hasColumn(k, "iter_value")) {
            query("SELECT n.iter_value, k.device_id, k.gpu_start, k.gpu_stop, " + schema.col("read_only_kernels", "k", "uses_tc", "0")
                    + " FROM " + k + " n JOIN read_only_kernels k ON k.id = n.read_only_kernel_id WHERE" + aggr(k, "n")
                    + " ORDER BY k.gpu_start", rs -> {
                        Integer step = index.get(rs.getInt(1));
                        sweep.gpu(step == null ? -1 : step, rs.getInt(2), rs.getLong(3), rs.getLong(4), StepGpuSweep.COMPUTE,
                                rs.getInt(5) != 0, -1);
                    });
        }
        sweep.finish();
        long[] gpuStart = new long[n];
        long[] gpuEnd = new long[n];
        for (int i = 0; i < n; i++) {
            StepGpuSweep.Cell c = sweep.all(i);
            gpuStart[i] = c.ran() ? c.first() : -1;
            gpuEnd[i] = c.ran() ? c.last() : -1;
        }
        int first = -1;
        int last = -1;
        for (int i = 0; i < n; i++) {
            if (!list.get(i).aggregated()) continue;
            if (first < 0) first = i;
            last = i;
        }
        if (first < 0) {
            first = 0;
            last = n - 1;
        }
        StepWindow.Decision d = StepWindow.decide(its, gpuStart, gpuEnd, new int[] {first, last});
        List<Iteration> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Iteration it = list.get(i);
            StepGpuSweep.Cell c = sweep.all(i);
            long step = d.durations()[i];
            long busy = c.ran() ? c.busyNs() : 0;
            long idle = Math.max(0, step - busy);
            out.add(new Iteration(it.index(), it.startNs(), it.endNs(), it.aggregated(), it.kernelCount(), it.gpuTimeNs(),
                    it.tcTimeNs(), it.memoryTimeNs(), it.dataLoaderNs(), it.syncNs(), c.ran() ? idle : Iteration.UNKNOWN,
                    gpuStart[i], gpuEnd[i], step, c.ran() ? busy : Iteration.UNKNOWN,
                    c.ran() ? Math.min(idle, c.spanNs() - busy) : Iteration.UNKNOWN));
        }
        return new GpuSide(out, n > 1 ? d.binding() : null);
    }

    private List<Iteration> iterations(int[] iter) throws SQLException {
        List<Iteration> list = new ArrayList<>();
        if (!schema.has("iteration_list")) return list;
        Map<Integer, long[]> agg = new HashMap<>();
        String a = "iteration_aggregation_list";
        if (schema.has(a)) {
            query("SELECT x.iter_value, " + schema.col(a, "x", "tc_duration", "0") + ", " + schema.col(a, "x", "non_tc_duration", "0")
                    + ", " + schema.col(a, "x", "memory_duration", "0") + " FROM " + a + " x WHERE" + aggr(a, "x"),
                    rs -> agg.put(rs.getInt(1), new long[] {rs.getLong(2), rs.getLong(3), rs.getLong(4)}));
        }
        int start = iter[1];
        int stop = iter[2] < 0 ? Integer.MAX_VALUE : iter[2];
        Map<Integer, Long> kernelsByIter = new HashMap<>();
        if (kernelRows && schema.has("kernel_iteration_node") && schema.hasColumn("kernel_iteration_node", "total_count")) {
            query("SELECT k.iter_value, SUM(k.total_count) FROM kernel_iteration_node k WHERE" + aggr("kernel_iteration_node", "k")
                    + " GROUP BY k.iter_value", rs -> kernelsByIter.put(rs.getInt(1), rs.getLong(2)));
        }
        query("SELECT l.iter_value, l.start_time, l.stop_time FROM iteration_list l WHERE" + aggr("iteration_list", "l")
                + " ORDER BY l.iter_value", rs -> {
                    int i = rs.getInt(1);
                    long[] d = agg.getOrDefault(i, new long[3]);
                    list.add(new Iteration(i, rs.getLong(2), rs.getLong(3), i >= start && i <= stop,
                            kernelsByIter.getOrDefault(i, 0L), d[0] + d[1], d[0], d[2]));
                });
        return list;
    }

    // ------------------------------------------------------------------ GPUs

    private void gpus(long wall) throws SQLException {
        Map<Long, long[]> memories = new HashMap<>();
        if (schema.has("gpu_memories")) {
            query("SELECT id, total, used FROM gpu_memories", rs -> memories.put(rs.getLong(1), new long[] {rs.getLong(2), rs.getLong(3)}));
        }
        Map<Long, Double> utilByInfo = new HashMap<>();
        String u = "device_gpu_utilizations";
        if (schema.has(u)) {
            query("SELECT d.gpu_info_id, d.gpu_utilization FROM " + u + " d WHERE" + aggr(u, "d"),
                    rs -> utilByInfo.put(rs.getLong(1), rs.getDouble(2)));
        }
        Map<Integer, long[]> kernelsByDevice = new HashMap<>();
        if (kernelRows) {
            query("SELECT device_id, COUNT(*), COALESCE(SUM(gpu_stop - gpu_start), 0) FROM read_only_kernels GROUP BY device_id",
                    rs -> kernelsByDevice.put(rs.getInt(1), new long[] {rs.getLong(2), rs.getLong(3)}));
        }
        Map<Integer, Long> memOpsByDevice = new HashMap<>();
        for (String t : List.of("read_only_memcpys", "read_only_memsets")) {
            if (!schema.has(t)) continue;
            query("SELECT device_id, COUNT(*) FROM " + t + " GROUP BY device_id",
                    rs -> memOpsByDevice.merge(rs.getInt(1), rs.getLong(2), Long::sum));
        }
        Map<Integer, Object[]> byDevice = new TreeMap<>();
        String g = "read_only_gpu_infos";
        if (schema.has(g)) {
            query("SELECT i.id, i.device_id, " + schema.col(g, "i", "gpu_name", "NULL") + ", "
                    + schema.col(g, "i", "compute_capability_major", "0") + ", " + schema.col(g, "i", "compute_capability_minor", "0")
                    + ", " + schema.col(g, "i", "sm_count", "0") + " FROM " + g + " i", rs -> {
                        long infoId = rs.getLong(1);
                        int dev = rs.getInt(2);
                        // gpu_memories has no device column; DLProf writes it in the same row order as the infos.
                        // A re-analysis of an nsys export records total = used = 0: memory unknown.
                        long[] mem = memories.getOrDefault(infoId, new long[] {0, 0});
                        boolean known = mem[0] > 0 && mem[1] > 0;
                        GpuInfo info = new GpuInfo(dev, rs.getString(3), rs.getInt(6), mem[0], rs.getInt(4), rs.getInt(5),
                                known ? mem[1] : -1);
                        byDevice.put(dev, new Object[] {info, utilByInfo.getOrDefault(infoId, 0.0)});
                    });
        }
        // without kernel rows, DLProf's op nodes still count the launches; with one GPU they are all its own
        long launches = !kernelRows && byDevice.size() == 1 && schema.has("op_nodes") && schema.hasColumn("op_nodes", "kernel_calls")
                ? longValue("SELECT COALESCE(SUM(n.kernel_calls), 0) FROM op_nodes n WHERE" + aggr("op_nodes", "n"), 0) : 0;
        for (Map.Entry<Integer, Object[]> e : byDevice.entrySet()) {
            int dev = e.getKey();
            out.gpu((GpuInfo) e.getValue()[0]);
            long[] k = kernelsByDevice.getOrDefault(dev, new long[] {launches, 0});
            double util = (Double) e.getValue()[1];
            // DLProf's per-device utilisation is the kernel-busy share of the wall clock
            out.gpuUsage(new GpuUsage(dev, k[0], k[1], memOpsByDevice.getOrDefault(dev, 0L),
                    Math.round(wall * Math.max(0, Math.min(100, util)) / 100.0), wall, util));
        }
    }

    // ------------------------------------------------------------------ ops and kernels

    /** Kernel classes and GPU time of tensor-core kernels per read_only_ops row. */
    private final Map<Long, Long> tcTimeByOp = new HashMap<>();

    /** @return read_only_ops.id → op_id, for kernels */
    private Map<Long, String> ops() throws SQLException {
        Map<Long, String> opIds = new HashMap<>();
        if (!schema.has("read_only_ops")) return opIds;
        tensorCoreTimeByOp();
        Map<Long, String> shapes = new HashMap<>();
        if (schema.has("read_only_op_instances") && schema.hasColumn("read_only_op_instances", "input_shapes_id")) {
            query("SELECT read_only_ops_id, MIN(input_shapes_id) FROM read_only_op_instances GROUP BY read_only_ops_id",
                    rs -> shapes.put(rs.getLong(1), emptyToNull(dictionary.get(rs.getLong(2)))));
        }
        if (!schema.has("op_nodes")) {
            // the ops DLProf imported, without its aggregates
            query("SELECT o.id, o.op_id, o.op_name, " + schema.col("read_only_ops", "o", "op_type_id", "0") + " FROM read_only_ops o"
                    + " ORDER BY o.op_id", rs -> {
                        opIds.put(rs.getLong(1), rs.getString(2));
                        String type = emptyToNull(dictionary.get(rs.getLong(4)));
                        out.op(new OpFact(rs.getString(2), rs.getString(3), type == null ? "unknown" : type.toLowerCase(Locale.ROOT),
                                Direction.NA, 0, Stat.EMPTY, Stat.EMPTY, Stat.EMPTY, Stat.EMPTY, false, false,
                                tcTimeByOp.getOrDefault(rs.getLong(1), 0L), 0, null, shapes.get(rs.getLong(1)), List.of()));
                    });
            return opIds;
        }
        boolean metrics = schema.has("node_time_metrics") && schema.has("metric");
        String r = "read_only_ops";
        String n = "op_nodes";
        String sql = "SELECT o.id, o.op_id, o.op_name, " + schema.col(r, "o", "op_type_id", "0") + ", "
                + schema.col(r, "o", "data_type_id", "0") + ", " + schema.col(r, "o", "direction_id", "0") + ", "
                + schema.col(r, "o", "stack_trace", "NULL") + ", "
                + schema.col(n, "n", "num_calls", "0") + ", " + schema.col(n, "n", "kernel_calls", "0") + ", "
                + schema.col(n, "n", "tc_eligible", "0") + ", " + schema.col(n, "n", "using_tc", "0") + ", "
                + (metrics ? metricCols("cpu") + ", " + metricCols("gpu") + ", " + metricCols("ovh") + ", " + metricCols("idle")
                        : "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL")
                + " FROM op_nodes n JOIN read_only_ops o ON o.id = n.read_only_ops_id"
                + (metrics ? " LEFT JOIN node_time_metrics t ON t.id = n.node_time_metrics_id"
                        + " LEFT JOIN metric cpu ON cpu.id = t.cpu_time_metric_id"
                        + " LEFT JOIN metric gpu ON gpu.id = t.gpu_time_metric_id"
                        + " LEFT JOIN metric ovh ON ovh.id = t.cpu_overhead_time_metric_id"
                        + " LEFT JOIN metric idle ON idle.id = t.gpu_idle_time_metric_id" : "")
                + " WHERE" + aggr(n, "n") + " ORDER BY o.op_id";
        query(sql, rs -> {
            long rowId = rs.getLong(1);
            String opId = rs.getString(2);
            opIds.put(rowId, opId);
            String type = emptyToNull(dictionary.get(rs.getLong(4)));
            long tcNs = tcTimeByOp.getOrDefault(rowId, 0L);
            // DLProf's own verdict, or a tensor-core kernel the catalogue recognised
            boolean usesTc = rs.getInt(11) != 0 || tcNs > 0;
            List<StackFrame> stack = stack(rs.getString(7));
            sawStack |= !stack.isEmpty();
            OpFact op = new OpFact(opId, rs.getString(3), type == null ? "unknown" : type.toLowerCase(Locale.ROOT),
                    direction(dictionary.get(rs.getLong(6))), rs.getLong(8), stat(rs, 12), stat(rs, 16), stat(rs, 20),
                    stat(rs, 24), rs.getInt(10) != 0, usesTc, tcNs, rs.getLong(9),
                    emptyToNull(dictionary.get(rs.getLong(5))), shapes.get(rowId), stack);
            opFacts.add(op);
            out.op(op);
        });
        return opIds;
    }

    /**
     * GPU time of tensor-core kernels per op: from the kernel rows when DLProf kept them, else from its
     * per-op kernel summaries; kernels classified by the catalogue, DLProf's {@code uses_tc} for names it
     * does not know. Also reports the kernel names the catalogue does not know.
     */
    private void tensorCoreTimeByOp() throws SQLException {
        KernelMix mix = new KernelMix();
        if (kernelRows) {
            String longName = schema.col("read_only_kernels", "k", "long_name_id", "k.name_id");
            query("SELECT k.read_only_ops_id, k.name_id, " + longName + ", " + schema.col("read_only_kernels", "k", "uses_tc", "0")
                    + ", SUM(k.gpu_stop - k.gpu_start) FROM read_only_kernels k GROUP BY 1, 2, 3, 4", rs -> {
                        String name = dictionary.get(rs.getLong(2));
                        KernelClass kc = classify(name, dictionary.get(rs.getLong(3)));
                        long ns = Math.max(0, rs.getLong(5));
                        mix.add(name, kc, ns);
                        if (usesTc(kc, rs.getInt(4))) tcTimeByOp.merge(rs.getLong(1), ns, Long::sum);
                    });
        } else if (schema.has("kernel_summaries") && schema.has("metric")) {
            query("SELECT s.read_only_ops_id, s.kernel_name_id, " + schema.col("kernel_summaries", "s", "uses_tc", "0")
                    + ", g.sum FROM kernel_summaries s LEFT JOIN metric g ON g.id = s.gpu_time_metric_id WHERE"
                    + aggr("kernel_summaries", "s"), rs -> {
                        String name = dictionary.get(rs.getLong(2));
                        KernelClass kc = classify(name, null);
                        long ns = Math.max(0, rs.getLong(4));
                        mix.add(name, kc, ns);
                        if (usesTc(kc, rs.getInt(3))) tcTimeByOp.merge(rs.getLong(1), ns, Long::sum);
                    });
        }
        String w = mix.warning();
        if (w != null) out.warning(KernelMix.WARNING_CODE, w);
    }

    private static KernelClass classify(String name, String longName) {
        return KernelCatalogue.builtin().classify(name, longName);
    }

    /** The catalogue decides for the names it knows; DLProf's own flag for the rest. */
    private static boolean usesTc(KernelClass kc, int dlprofUsesTc) {
        return kc.known() ? kc.tensorCores() : dlprofUsesTc != 0;
    }

    private static String metricCols(String alias) {
        return alias + ".count, " + alias + ".sum, " + alias + ".min, " + alias + ".max";
    }

    private static Stat stat(ResultSet rs, int col) throws SQLException {
        long count = rs.getLong(col);
        if (rs.wasNull() || count == 0) return Stat.EMPTY;
        return new Stat(count, rs.getLong(col + 1), rs.getLong(col + 2), rs.getLong(col + 3));
    }

    static Direction direction(String d) {
        if (d == null) return Direction.NA;
        return switch (d.toLowerCase(Locale.ROOT)) {
            case "fprop" -> Direction.FPROP;
            case "bprop" -> Direction.BPROP;
            default -> Direction.NA;
        };
    }

    /** DLProf stores the stack as lines {@code file.py:42}, the entry point first (as its plugin's markers). */
    private static List<StackFrame> stack(String text) {
        if (text == null || text.isBlank()) return List.of();
        List<StackFrame> frames = new ArrayList<>();
        for (String line : text.split("\\R")) {
            String l = line.trim();
            if (l.isEmpty()) continue;
            int colon = l.lastIndexOf(':');
            int lineNo = 0;
            String f = l;
            if (colon > 0) {
                try {
                    lineNo = Integer.parseInt(l.substring(colon + 1).trim());
                    f = l.substring(0, colon);
                } catch (NumberFormatException e) {
                    f = l;
                }
            }
            frames.add(new StackFrame(f, lineNo, ""));
        }
        return dlproflint.facts.StackFrames.innermostFirst(frames);
    }

    private void kernels(Map<Long, String> opIds) throws SQLException {
        if (!schema.has("kernel_summaries") || !schema.has("metric")) return;
        Map<String, Object[]> first = new HashMap<>();
        if (kernelRows) {
            boolean grid = schema.has("read_only_grid_block");
            String longName = schema.col("read_only_kernels", "k", "long_name_id", "k.name_id");
            query("SELECT k.read_only_ops_id, k.name_id, " + longName + ", k.device_id, "
                    + (grid ? "g.x, g.y, g.z, b.x, b.y, b.z FROM read_only_kernels k LEFT JOIN read_only_grid_block g ON g.id = k.grid_id "
                            + "LEFT JOIN read_only_grid_block b ON b.id = k.block_id"
                            : "NULL, NULL, NULL, NULL, NULL, NULL FROM read_only_kernels k") + " ORDER BY k.gpu_start", rs -> {
                        String key = rs.getLong(1) + "/" + rs.getLong(2);
                        first.putIfAbsent(key, new Object[] {dictionary.get(rs.getLong(3)), rs.getInt(4),
                                rs.getObject(5) == null ? null : rs.getInt(5) + "," + rs.getInt(6) + "," + rs.getInt(7),
                                rs.getObject(8) == null ? null : rs.getInt(8) + "," + rs.getInt(9) + "," + rs.getInt(10)});
                    });
        }
        // without kernel rows the device is DLProf's only GPU, when it has one
        int soleDevice = schema.has("read_only_gpu_infos") && longValue("SELECT COUNT(*) FROM read_only_gpu_infos", 0) == 1
                ? (int) longValue("SELECT device_id FROM read_only_gpu_infos", 0) : 0;
        String s = "kernel_summaries";
        query("SELECT s.read_only_ops_id, s.kernel_name_id, " + schema.col(s, "s", "uses_tc", "0") + ", " + metricCols("g")
                + ", " + metricCols("a") + " FROM kernel_summaries s LEFT JOIN metric g ON g.id = s.gpu_time_metric_id "
                + "LEFT JOIN metric a ON a.id = " + schema.col(s, "s", "api_time_metric_id", "NULL") + " WHERE" + aggr(s, "s")
                + " ORDER BY s.read_only_ops_id, s.kernel_name_id", rs -> {
                    String name = dictionary.get(rs.getLong(2));
                    Object[] f = first.getOrDefault(rs.getLong(1) + "/" + rs.getLong(2), new Object[] {name, soleDevice, null, null});
                    String longName = f[0] == null ? name : (String) f[0];
                    KernelClass kc = classify(name, longName);
                    out.kernel(new KernelFact(name, longName, opIds.getOrDefault(rs.getLong(1), "unknown"), (Integer) f[1],
                            stat(rs, 4), stat(rs, 8), usesTc(kc, rs.getInt(3)), (String) f[2], (String) f[3], kc.precision(),
                            kc.family(), kc.kind()));
                });
    }

    // ------------------------------------------------------------------ API and memory

    private void apis() throws SQLException {
        if (!schema.has("read_only_cuda_calls")) return;
        Map<String, StatAccumulator> stats = new TreeMap<>();
        query("SELECT name_id, api_stop - api_start FROM read_only_cuda_calls", rs -> stats
                .computeIfAbsent(ApiNames.normalize(dictionary.get(rs.getLong(1))), k -> new StatAccumulator())
                .add(Math.max(0, rs.getLong(2))));
        for (Map.Entry<String, StatAccumulator> e : stats.entrySet()) {
            out.apiStat(new ApiStat(e.getKey(), ApiNames.category(e.getKey()), e.getValue().toStat()));
        }
    }

    private void memory() throws SQLException {
        if (schema.has("read_only_memcpys")) {
            Map<String, Object[]> copies = new LinkedHashMap<>();
            query("SELECT name_id, copy_kind, num_bytes, gpu_stop - gpu_start FROM read_only_memcpys ORDER BY name_id, copy_kind", rs -> {
                String api = ApiNames.normalize(dictionary.get(rs.getLong(1)));
                String kind = MemoryKinds.copyKind(rs.getInt(2));
                Object[] acc = copies.computeIfAbsent(api + "|" + kind, k -> new Object[] {api, kind, new long[3], new StatAccumulator()});
                long bytes = rs.getLong(3);
                long[] n = (long[]) acc[2];
                n[0]++;
                n[1] += bytes;
                if (MemoryKinds.hostToDevice(kind) && bytes <= MemoryKinds.SMALL_HTOD_BYTES) n[2]++;
                ((StatAccumulator) acc[3]).add(Math.max(0, rs.getLong(4)));
            });
            for (Object[] acc : copies.values()) {
                long[] n = (long[]) acc[2];
                // DLProf's database does not keep source/destination memory kinds
                out.memcpyStat(new MemcpyStat((String) acc[0], (String) acc[1], "Unknown", "Unknown", n[0], n[1],
                        ((StatAccumulator) acc[3]).toStat(), n[2]));
            }
        }
        if (schema.has("read_only_memsets")) {
            Map<String, Object[]> sets = new LinkedHashMap<>();
            query("SELECT name_id, num_bytes, gpu_stop - gpu_start FROM read_only_memsets ORDER BY name_id", rs -> {
                String api = ApiNames.normalize(dictionary.get(rs.getLong(1)));
                Object[] acc = sets.computeIfAbsent(api, k -> new Object[] {api, new long[2], new StatAccumulator()});
                long[] n = (long[]) acc[1];
                n[0]++;
                n[1] += rs.getLong(2);
                ((StatAccumulator) acc[2]).add(Math.max(0, rs.getLong(3)));
            });
            for (Object[] acc : sets.values()) {
                long[] n = (long[]) acc[1];
                out.memsetStat(new MemsetStat((String) acc[0], "Unknown", n[0], n[1], ((StatAccumulator) acc[2]).toStat()));
            }
        }
    }

    /** DLProf's PyTorch plugin records these settings; in TensorFlow mode the table only holds defaults. */
    private void modelConfig(String framework) throws SQLException {
        boolean ops = schema.has("read_only_ops");
        long opCount = ops ? longValue("SELECT COUNT(*) FROM read_only_ops", 0) : 0;
        long xla = ops && schema.hasColumn("read_only_ops", "op_type_id") ? longValue("SELECT COUNT(*) FROM read_only_ops o "
                + "JOIN dictionary d ON d.id = o.op_type_id WHERE lower(d.string) LIKE '%xla%'", 0) : 0;
        boolean pytorch = "pytorch".equals(framework);
        out.markers(new Marker(0, pytorch ? opCount : 0, 0, 0, xla, 0));
        String t = "read_only_model_config";
        if (!pytorch || !schema.has(t)) return;
        List<String> cols = List.of("num_workers", "pin_memory", "cudnn_benchmark_disabled", "detect_anomaly", "gradcheck",
                "gradgradcheck", "autograd_profile", "emit_nvtx", "amp_enabled");
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < cols.size(); i++) sql.append(i == 0 ? "" : ", ").append(schema.col(t, "m", cols.get(i), "NULL"));
        query(sql + " FROM " + t + " m ORDER BY m.id LIMIT 1", rs -> out.modelConfig(new ModelConfig(
                integer(rs, 1), flag(rs, 2, false), flag(rs, 3, true), flag(rs, 4, false), flag(rs, 5, false),
                flag(rs, 6, false), flag(rs, 7, false), flag(rs, 8, false), flag(rs, 9, false))));
    }

    private static Integer integer(ResultSet rs, int col) throws SQLException {
        int v = rs.getInt(col);
        return rs.wasNull() ? null : v;
    }

    /** A recorded boolean setting, null when the column is absent; {@code inverted} for DLProf's "..._disabled" columns. */
    private static Boolean flag(ResultSet rs, int col, boolean inverted) throws SQLException {
        int v = rs.getInt(col);
        if (rs.wasNull()) return null;
        return inverted ? v == 0 : v != 0;
    }

    // ------------------------------------------------------------------ JDBC helpers

    private void query(String sql, Rows.Handler handler) throws SQLException {
        Rows.each(c, sql, handler);
    }

    private long longValue(String sql, long fallback) throws SQLException {
        return Rows.number(c, sql, fallback);
    }

    private static String emptyToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
