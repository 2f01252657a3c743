package dlproflint.extract.dldb;

import dlproflint.extract.ReadOptions;
import dlproflint.extract.common.ApiNames;
import dlproflint.extract.common.MemoryKinds;
import dlproflint.extract.common.ReadOnlySqlite;
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
import java.sql.PreparedStatement;
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
 */
final class DlprofFactsLoader {
    private final Connection c;
    private final Path file;
    private final String version;
    private final ReadOptions options;
    private final ProfileFacts.Builder out = ProfileFacts.builder();
    private final Map<Long, String> dictionary = new HashMap<>();
    private long aggrId;

    DlprofFactsLoader(Connection c, Path file, String version, ReadOptions options) {
        this.c = c;
        this.file = file;
        this.version = version;
        this.options = options;
    }

    ProfileFacts load() throws SQLException {
        query("SELECT id, string FROM dictionary", rs -> dictionary.put(rs.getLong(1), rs.getString(2)));
        Long aggr = longValue("SELECT MAX(aggr_id) FROM model_summary");
        aggrId = aggr == null ? 1 : aggr;
        String framework = system();
        long wall = summary();
        gpus(wall);
        Map<Long, String> opIds = ops();
        kernels(opIds);
        apis();
        memory();
        modelConfig(framework);
        if (longValue("SELECT COUNT(*) FROM read_only_kernels") == 0 && longValue("SELECT COUNT(*) FROM op_nodes") > 0) {
            out.warning("no-kernel-data", "DLProf recorded no kernel-level data (read_only_kernels is empty, as in its "
                    + "TensorFlow 1 mode): GPU times are unknown, DLProf's own op classification is used");
        }
        if (options.keyNode() != null || options.iterStart() != null || options.iterStop() != null) {
            out.warning("dlprof-db-fixed-aggregation", "a DLProf database holds DLProf's own iteration split and "
                    + "aggregation range; --key-node/--iter-start/--iter-stop need the nsys profile it was made from");
        }
        return out.build();
    }

    // ------------------------------------------------------------------ system

    private String system() throws SQLException {
        String[] sys = new String[7];
        query("SELECT cpu_model, driver_version, framework, cuda_version, cudnn_version, nsys_version, dlprof_version "
                + "FROM read_only_system_config ORDER BY id LIMIT 1", rs -> {
                    for (int i = 0; i < 7; i++) sys[i] = emptyToNull(rs.getString(i + 1));
                });
        String fw = sys[2];
        String framework = null;
        String fwVersion = null;
        if (fw != null) {
            String lower = fw.toLowerCase(Locale.ROOT);
            framework = lower.startsWith("pytorch") ? "pytorch" : lower.startsWith("tensorflow") ? "tensorflow"
                    : lower.startsWith("tensorrt") ? "tensorrt" : lower.split(" ")[0];
            int sp = fw.indexOf(' ');
            fwVersion = sp > 0 ? fw.substring(sp + 1).trim() : null;
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
        query("SELECT wall_time, tc_utilization, gpu_utilization, tc_duration_pct, non_tc_duration_pct, "
                + "memory_duration_pct, dataloader_duration_pct, io_duration_pct, cpu_duration_pct, other_duration_pct, "
                + "iter_total, iter_start, iter_stop, key_node_id FROM model_summary WHERE aggr_id = " + aggrId
                + " ORDER BY id LIMIT 1", rs -> {
                    wall[0] = rs.getLong(1);
                    for (int i = 0; i < 9; i++) pct[i] = rs.getDouble(i + 2);
                    iter[0] = rs.getInt(11);
                    iter[1] = rs.getInt(12);
                    iter[2] = rs.getInt(13);
                    keyNode[0] = rs.getLong(14);
                });
        out.profile(new ProfileInfo(file.toString(), "dlprof-db", "DLProf " + version, version, 0, wall[0]));
        out.breakdown(new TimeBreakdown(wall[0], pct[0], pct[1], pct[2], pct[3], pct[4], pct[5], pct[6], pct[7], pct[8]));
        List<Iteration> list = new ArrayList<>();
        Map<Integer, long[]> agg = new HashMap<>();
        query("SELECT iter_value, tc_duration, non_tc_duration, memory_duration FROM iteration_aggregation_list "
                + "WHERE aggr_id = " + aggrId, rs -> agg.put(rs.getInt(1), new long[] {rs.getLong(2), rs.getLong(3), rs.getLong(4)}));
        int start = iter[1];
        int stop = iter[2] < 0 ? iter[0] - 1 : iter[2];
        query("SELECT iter_value, start_time, stop_time FROM iteration_list WHERE aggr_id = " + aggrId + " ORDER BY iter_value",
                rs -> {
                    int i = rs.getInt(1);
                    long[] d = agg.getOrDefault(i, new long[3]);
                    list.add(new Iteration(i, rs.getLong(2), rs.getLong(3), i >= start && i <= stop, 0,
                            d[0] + d[1], d[0], d[2]));
                });
        list.forEach(out::iteration);
        double sum = 0;
        int n = 0;
        for (Iteration it : list) {
            if (it.aggregated()) {
                sum += it.durationNs();
                n++;
            }
        }
        double avg = n == 0 ? 0 : sum / n;
        double var = 0;
        for (Iteration it : list) {
            if (it.aggregated()) var += Math.pow(it.durationNs() - avg, 2);
        }
        String key = emptyToNull(dictionary.get(keyNode[0]));
        // N occurrences of the key node split the profile into N+1 iterations: one iteration = not found
        boolean found = iter[0] > 1;
        out.iterationSummary(new IterationSummary(key, found, "dlprof", Math.max(iter[0], list.size()), start, stop, avg,
                n == 0 ? 0 : Math.sqrt(var / n), found ? IterationSummary.DLPROF : IterationSummary.NONE, List.of()));
        return wall[0];
    }

    // ------------------------------------------------------------------ GPUs

    private void gpus(long wall) throws SQLException {
        Map<Long, long[]> memories = new HashMap<>();
        if (ReadOnlySqlite.hasTable(c, "gpu_memories")) {
            query("SELECT id, total, used FROM gpu_memories", rs -> memories.put(rs.getLong(1), new long[] {rs.getLong(2), rs.getLong(3)}));
        }
        Map<Long, Double> utilByInfo = new HashMap<>();
        query("SELECT gpu_info_id, gpu_utilization FROM device_gpu_utilizations WHERE aggr_id = " + aggrId,
                rs -> utilByInfo.put(rs.getLong(1), rs.getDouble(2)));
        Map<Integer, long[]> kernelsByDevice = new HashMap<>();
        query("SELECT device_id, COUNT(*), COALESCE(SUM(gpu_stop - gpu_start), 0) FROM read_only_kernels GROUP BY device_id",
                rs -> kernelsByDevice.put(rs.getInt(1), new long[] {rs.getLong(2), rs.getLong(3)}));
        Map<Integer, Long> memOpsByDevice = new HashMap<>();
        for (String t : List.of("read_only_memcpys", "read_only_memsets")) {
            query("SELECT device_id, COUNT(*) FROM " + t + " GROUP BY device_id",
                    rs -> memOpsByDevice.merge(rs.getInt(1), rs.getLong(2), Long::sum));
        }
        Map<Integer, Object[]> byDevice = new TreeMap<>();
        query("SELECT id, device_id, gpu_name, compute_capability_major, compute_capability_minor, sm_count "
                + "FROM read_only_gpu_infos", rs -> {
                    long infoId = rs.getLong(1);
                    int dev = rs.getInt(2);
                    // gpu_memories has no device column; DLProf writes it in the same row order as the infos
                    long[] mem = memories.getOrDefault(infoId, new long[] {0, 0});
                    boolean known = mem[0] > 0;
                    GpuInfo info = new GpuInfo(dev, rs.getString(3), rs.getInt(6), mem[0], rs.getInt(4), rs.getInt(5),
                            known ? mem[1] : -1);
                    byDevice.put(dev, new Object[] {info, utilByInfo.getOrDefault(infoId, 0.0)});
                });
        for (Map.Entry<Integer, Object[]> e : byDevice.entrySet()) {
            int dev = e.getKey();
            out.gpu((GpuInfo) e.getValue()[0]);
            long[] k = kernelsByDevice.getOrDefault(dev, new long[2]);
            double util = (Double) e.getValue()[1];
            out.gpuUsage(new GpuUsage(dev, k[0], k[1], memOpsByDevice.getOrDefault(dev, 0L),
                    Math.round(wall * util / 100.0), wall, util));
        }
    }

    // ------------------------------------------------------------------ ops and kernels

    /** @return read_only_ops.id → op_id, for kernels */
    private Map<Long, String> ops() throws SQLException {
        Map<Long, String> opIds = new HashMap<>();
        Map<Long, long[]> tcTime = new HashMap<>();
        query("SELECT read_only_ops_id, SUM(CASE WHEN uses_tc != 0 THEN gpu_stop - gpu_start ELSE 0 END) "
                + "FROM read_only_kernels GROUP BY read_only_ops_id", rs -> tcTime.put(rs.getLong(1), new long[] {rs.getLong(2)}));
        Map<Long, String> shapes = new HashMap<>();
        query("SELECT read_only_ops_id, MIN(input_shapes_id) FROM read_only_op_instances GROUP BY read_only_ops_id",
                rs -> shapes.put(rs.getLong(1), emptyToNull(dictionary.get(rs.getLong(2)))));
        String sql = "SELECT o.id, o.op_id, o.op_name, o.op_type_id, o.data_type_id, o.direction_id, o.stack_trace, "
                + "n.num_calls, n.kernel_calls, n.tc_eligible, n.using_tc, "
                + metricCols("cpu") + ", " + metricCols("gpu") + ", " + metricCols("ovh") + ", " + metricCols("idle")
                + " FROM op_nodes n JOIN read_only_ops o ON o.id = n.read_only_ops_id"
                + " LEFT JOIN node_time_metrics t ON t.id = n.node_time_metrics_id"
                + " LEFT JOIN metric cpu ON cpu.id = t.cpu_time_metric_id"
                + " LEFT JOIN metric gpu ON gpu.id = t.gpu_time_metric_id"
                + " LEFT JOIN metric ovh ON ovh.id = t.cpu_overhead_time_metric_id"
                + " LEFT JOIN metric idle ON idle.id = t.gpu_idle_time_metric_id"
                + " WHERE n.aggr_id = " + aggrId + " ORDER BY o.op_id";
        query(sql, rs -> {
            long rowId = rs.getLong(1);
            String opId = rs.getString(2);
            opIds.put(rowId, opId);
            String type = emptyToNull(dictionary.get(rs.getLong(4)));
            out.op(new OpFact(opId, rs.getString(3), type == null ? "unknown" : type.toLowerCase(Locale.ROOT),
                    direction(dictionary.get(rs.getLong(6))), rs.getLong(8), stat(rs, 12), stat(rs, 16), stat(rs, 20),
                    stat(rs, 24), rs.getInt(10) != 0, rs.getInt(11) != 0, tcTime.getOrDefault(rowId, new long[1])[0],
                    rs.getLong(9), emptyToNull(dictionary.get(rs.getLong(5))), shapes.get(rowId), stack(rs.getString(7))));
        });
        return opIds;
    }

    private static String metricCols(String alias) {
        return alias + ".count, " + alias + ".sum, " + alias + ".min, " + alias + ".max";
    }

    private static Stat stat(ResultSet rs, int col) throws SQLException {
        long count = rs.getLong(col);
        if (rs.wasNull() || count == 0) return Stat.EMPTY;
        return new Stat(count, rs.getLong(col + 1), rs.getLong(col + 2), rs.getLong(col + 3));
    }

    private static Direction direction(String d) {
        if (d == null) return Direction.NA;
        return switch (d.toLowerCase(Locale.ROOT)) {
            case "fprop" -> Direction.FPROP;
            case "bprop" -> Direction.BPROP;
            default -> Direction.NA;
        };
    }

    /** DLProf stores the stack as lines {@code file.py:42}, the user's frame first. */
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
        return frames;
    }

    private void kernels(Map<Long, String> opIds) throws SQLException {
        Map<String, Object[]> first = new HashMap<>();
        query("SELECT k.read_only_ops_id, k.name_id, k.long_name_id, k.device_id, g.x, g.y, g.z, b.x, b.y, b.z "
                + "FROM read_only_kernels k LEFT JOIN read_only_grid_block g ON g.id = k.grid_id "
                + "LEFT JOIN read_only_grid_block b ON b.id = k.block_id ORDER BY k.gpu_start", rs -> {
                    String key = rs.getLong(1) + "/" + rs.getLong(2);
                    first.putIfAbsent(key, new Object[] {dictionary.get(rs.getLong(3)), rs.getInt(4),
                            rs.getObject(5) == null ? null : rs.getInt(5) + "," + rs.getInt(6) + "," + rs.getInt(7),
                            rs.getObject(8) == null ? null : rs.getInt(8) + "," + rs.getInt(9) + "," + rs.getInt(10)});
                });
        query("SELECT s.read_only_ops_id, s.kernel_name_id, s.uses_tc, " + metricCols("g") + ", " + metricCols("a")
                + " FROM kernel_summaries s LEFT JOIN metric g ON g.id = s.gpu_time_metric_id "
                + "LEFT JOIN metric a ON a.id = s.api_time_metric_id WHERE s.aggr_id = " + aggrId
                + " ORDER BY s.read_only_ops_id, s.kernel_name_id", rs -> {
                    String name = dictionary.get(rs.getLong(2));
                    Object[] f = first.getOrDefault(rs.getLong(1) + "/" + rs.getLong(2), new Object[] {name, 0, null, null});
                    out.kernel(new KernelFact(name, f[0] == null ? name : (String) f[0],
                            opIds.getOrDefault(rs.getLong(1), "unknown"), (Integer) f[1], stat(rs, 4), stat(rs, 8),
                            rs.getInt(3) != 0, (String) f[2], (String) f[3]));
                });
    }

    // ------------------------------------------------------------------ API and memory

    private void apis() throws SQLException {
        Map<String, StatAccumulator> stats = new TreeMap<>();
        query("SELECT name_id, api_stop - api_start FROM read_only_cuda_calls", rs -> stats
                .computeIfAbsent(ApiNames.normalize(dictionary.get(rs.getLong(1))), k -> new StatAccumulator())
                .add(Math.max(0, rs.getLong(2))));
        for (Map.Entry<String, StatAccumulator> e : stats.entrySet()) {
            out.apiStat(new ApiStat(e.getKey(), ApiNames.category(e.getKey()), e.getValue().toStat()));
        }
    }

    private void memory() throws SQLException {
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

    /** DLProf's PyTorch plugin records these settings; in TensorFlow mode the table only holds defaults. */
    private void modelConfig(String framework) throws SQLException {
        long ops = longValue("SELECT COUNT(*) FROM read_only_ops");
        long xla = longValue("SELECT COUNT(*) FROM read_only_ops o JOIN dictionary d ON d.id = o.op_type_id "
                + "WHERE lower(d.string) LIKE '%xla%'");
        boolean pytorch = "pytorch".equals(framework);
        out.markers(new Marker(0, pytorch ? ops : 0, 0, 0, xla, 0));
        if (!pytorch || !ReadOnlySqlite.hasTable(c, "read_only_model_config")) return;
        query("SELECT num_workers, pin_memory, cudnn_benchmark_disabled, detect_anomaly, gradcheck, gradgradcheck, "
                + "autograd_profile, emit_nvtx, amp_enabled FROM read_only_model_config ORDER BY id LIMIT 1", rs -> out.modelConfig(
                        new ModelConfig(rs.getInt(1), rs.getInt(2) != 0, rs.getInt(3) == 0, rs.getInt(4) != 0,
                                rs.getInt(5) != 0, rs.getInt(6) != 0, rs.getInt(7) != 0, rs.getInt(8) != 0, rs.getInt(9) != 0)));
    }

    // ------------------------------------------------------------------ JDBC helpers

    private interface RowHandler {
        void row(ResultSet rs) throws SQLException;
    }

    private void query(String sql, RowHandler handler) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) handler.row(rs);
        }
    }

    private Long longValue(String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) return null;
            long v = rs.getLong(1);
            return rs.wasNull() ? null : v;
        }
    }

    private static String emptyToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
