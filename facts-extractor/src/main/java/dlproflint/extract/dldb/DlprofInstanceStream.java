package dlproflint.extract.dldb;

import dlproflint.extract.common.MemoryKinds;
import dlproflint.extract.kernels.KernelCatalogue;
import dlproflint.extract.kernels.KernelClass;
import dlproflint.facts.Direction;
import dlproflint.facts.InstanceSink;
import dlproflint.facts.KernelInstance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Streams the kernels, copies and sets DLProf kept ({@code read_only_kernels}, {@code read_only_memcpys},
 * {@code read_only_memsets}) as {@link KernelInstance}s, one row of one ordered query at a time, in GPU
 * start order per device: only their ops, grids and iteration windows (few) are held. A launch belongs
 * to the iteration whose window holds its API call, and only launches of the aggregated iterations are
 * streamed, as DLProf's iteration report lists them. A database without kernel rows streams nothing.
 */
final class DlprofInstanceStream {
    private record Op(String id, String name, Direction direction, String type, String dataType, String inputs,
                      String outputs) {
    }

    private final Connection c;
    private final DldbSchema schema;
    private final Map<Long, String> dictionary = new HashMap<>();
    private final Map<Long, Op> ops = new HashMap<>();
    private final Map<Long, int[]> dims = new HashMap<>();
    private long[] iterStarts = new long[0];
    private int[] iterValues = new int[0];
    private int aggStart;
    private int aggStop = Integer.MAX_VALUE;

    DlprofInstanceStream(Connection c) throws SQLException {
        this.c = c;
        this.schema = new DldbSchema(c);
    }

    void stream(InstanceSink sink) throws SQLException {
        if (!schema.has("read_only_kernels") || !schema.has("dictionary")) return;
        load();
        StringBuilder sql = new StringBuilder("SELECT 0, k.device_id, k.gpu_start, k.gpu_stop, k.api_start, k.api_stop, "
                + "k.read_only_ops_id, k.name_id, " + schema.col("read_only_kernels", "k", "long_name_id", "k.name_id") + ", "
                + schema.col("read_only_kernels", "k", "uses_tc", "0") + ", " + schema.col("read_only_kernels", "k", "grid_id", "NULL")
                + ", " + schema.col("read_only_kernels", "k", "block_id", "NULL") + ", 0 FROM read_only_kernels k");
        if (schema.has("read_only_memcpys")) {
            sql.append(" UNION ALL SELECT 1, m.device_id, m.gpu_start, m.gpu_stop, m.api_start, m.api_stop, m.read_only_ops_id, "
                    + "m.name_id, m.name_id, 0, NULL, NULL, " + schema.col("read_only_memcpys", "m", "copy_kind", "0")
                    + " FROM read_only_memcpys m");
        }
        if (schema.has("read_only_memsets")) {
            sql.append(" UNION ALL SELECT 2, s.device_id, s.gpu_start, s.gpu_stop, s.api_start, s.api_stop, s.read_only_ops_id, "
                    + "s.name_id, s.name_id, 0, NULL, NULL, 0 FROM read_only_memsets s");
        }
        sql.append(" ORDER BY 2, 3");
        Op none = new Op("unknown", "unknown", Direction.NA, "unknown", "", "", "");
        try (PreparedStatement ps = c.prepareStatement(sql.toString()); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                int kind = rs.getInt(1);
                long gpuStart = rs.getLong(3);
                long apiStart = rs.getLong(5);
                int iteration = iteration(apiStart > 0 ? apiStart : gpuStart);
                if (iteration < aggStart || iteration > aggStop) continue;
                Op op = ops.getOrDefault(rs.getLong(7), none);
                String name = dictionary.getOrDefault(rs.getLong(8), "unknown");
                String longName = dictionary.getOrDefault(rs.getLong(9), name);
                boolean tc = false;
                if (kind == 0) {
                    KernelClass kc = KernelCatalogue.builtin().classify(name, longName);
                    tc = kc.known() ? kc.tensorCores() : rs.getInt(10) != 0;
                } else {
                    name = kind == 1 ? "[CUDA memcpy " + MemoryKinds.copyKind(rs.getInt(13)) + "]" : "[CUDA memset]";
                    longName = name;
                }
                int[] g = dims.getOrDefault(rs.getLong(11), new int[3]);
                int[] b = dims.getOrDefault(rs.getLong(12), new int[3]);
                sink.accept(new KernelInstance(kind == 0 ? "kernel" : kind == 1 ? "memcpy" : "memset", iteration, op.id(),
                        op.name(), op.direction(), op.type(), name, longName, rs.getInt(2), gpuStart,
                        Math.max(0, rs.getLong(4) - gpuStart), apiStart, Math.max(0, rs.getLong(6) - apiStart), tc,
                        g[0], g[1], g[2], b[0], b[1], b[2], op.dataType(), op.inputs(), op.outputs()));
            }
        }
    }

    private void load() throws SQLException {
        query("SELECT id, string FROM dictionary", rs -> dictionary.put(rs.getLong(1), rs.getString(2)));
        if (schema.has("read_only_grid_block")) {
            query("SELECT id, x, y, z FROM read_only_grid_block", rs -> dims.put(rs.getLong(1), new int[] {rs.getInt(2), rs.getInt(3), rs.getInt(4)}));
        }
        Map<Long, long[]> shapes = new HashMap<>();
        if (schema.has("read_only_op_instances") && schema.hasColumn("read_only_op_instances", "input_shapes_id")
                && schema.hasColumn("read_only_op_instances", "output_shapes_id")) {
            query("SELECT read_only_ops_id, MIN(input_shapes_id), MIN(output_shapes_id) FROM read_only_op_instances GROUP BY 1",
                    rs -> shapes.put(rs.getLong(1), new long[] {rs.getLong(2), rs.getLong(3)}));
        }
        if (schema.has("read_only_ops")) {
            String r = "read_only_ops";
            query("SELECT o.id, o.op_id, o.op_name, " + schema.col(r, "o", "direction_id", "0") + ", "
                    + schema.col(r, "o", "op_type_id", "0") + ", " + schema.col(r, "o", "data_type_id", "0") + " FROM " + r + " o", rs -> {
                        long[] s = shapes.getOrDefault(rs.getLong(1), new long[] {-1, -1});
                        String type = dictionary.get(rs.getLong(5));
                        ops.put(rs.getLong(1), new Op(rs.getString(2), rs.getString(3),
                                DlprofFactsLoader.direction(dictionary.get(rs.getLong(4))),
                                type == null ? "unknown" : type.toLowerCase(Locale.ROOT), text(rs.getLong(6)), text(s[0]), text(s[1])));
                    });
        }
        long aggr = 1;
        if (schema.has("model_summary")) {
            aggr = longValue("SELECT MAX(aggr_id) FROM model_summary", 1);
            if (schema.hasColumn("model_summary", "iter_start") && schema.hasColumn("model_summary", "iter_stop")) {
                long finalAggr = aggr;
                query("SELECT iter_start, iter_stop FROM model_summary WHERE aggr_id = " + finalAggr + " LIMIT 1", rs -> {
                    aggStart = rs.getInt(1);
                    aggStop = rs.getInt(2) < 0 ? Integer.MAX_VALUE : rs.getInt(2);
                });
            }
        }
        if (schema.has("iteration_list")) {
            List<long[]> its = new ArrayList<>();
            query("SELECT iter_value, start_time FROM iteration_list" + (schema.hasColumn("iteration_list", "aggr_id")
                    ? " WHERE aggr_id = " + aggr : "") + " ORDER BY start_time", rs -> its.add(new long[] {rs.getLong(2), rs.getLong(1)}));
            iterStarts = new long[its.size()];
            iterValues = new int[its.size()];
            for (int i = 0; i < its.size(); i++) {
                iterStarts[i] = its.get(i)[0];
                iterValues[i] = (int) its.get(i)[1];
            }
        }
    }

    /** The iteration whose window holds {@code t}: the last one starting at or before it (the first before them all). */
    private int iteration(long t) {
        if (iterStarts.length == 0) return 0;
        int i = java.util.Arrays.binarySearch(iterStarts, t);
        if (i < 0) i = -i - 2;
        return iterValues[Math.max(0, i)];
    }

    private String text(long id) {
        String s = dictionary.get(id);
        return s == null ? "" : s;
    }

    private void query(String sql, Rows.Handler h) throws SQLException {
        Rows.each(c, sql, h);
    }

    private long longValue(String sql, long fallback) throws SQLException {
        return Rows.number(c, sql, fallback);
    }
}
