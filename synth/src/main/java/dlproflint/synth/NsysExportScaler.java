package dlproflint.synth;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Makes a large Nsight Systems export from a real one by repeating its events (issue 25: a benchmark case with the
 * shape of an export users make, not only the generator's): copy k of every event table the readers use is the
 * template's rows shifted in time by k × the template's span and, where the table has one, its correlation id by
 * k × a stride, so each copy's kernels still meet their own launch calls. Rows are appended copy after copy in the
 * template's storage order, so the output is stored as nsys stored the template (push/pop ranges after their
 * content). Everything else (strings, threads, GPUs, metadata) is the template's, once.
 *
 * <pre>
 * java -cp bench/target/dlprof-lint-bench.jar dlproflint.synth.NsysExportScaler TEMPLATE.sqlite OUT.sqlite KERNELS
 * </pre>
 */
public final class NsysExportScaler {
    /** The event tables copied (those present): what the nsys reader reads by time. */
    static final List<String> EVENT_TABLES = List.of("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME",
            "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
            "NVTX_EVENTS", "OSRT_API", "CUDA_GPU_MEMORY_USAGE_EVENTS");

    private NsysExportScaler() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: NsysExportScaler TEMPLATE.sqlite OUT.sqlite KERNELS");
            System.exit(2);
        }
        int copies = scale(Path.of(args[0]), Path.of(args[1]), Long.parseLong(args[2]));
        System.out.println(args[1] + ": " + copies + " copies of " + args[0]);
    }

    /**
     * Writes {@code out}: {@code template} with its events repeated until it has at least {@code kernels} kernels.
     *
     * @return the number of copies (1: the template as it is)
     */
    public static int scale(Path template, Path out, long kernels) throws SQLException, java.io.IOException {
        Path tmp = out.resolveSibling(out.getFileName() + ".part");
        // the bytes only: a corpus file is read-only, its copy must not be
        try (java.io.InputStream in = Files.newInputStream(template)) {
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
        }
        int copies;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + tmp); Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode = OFF");
            st.execute("PRAGMA synchronous = OFF");
            Map<String, List<String>> tables = new LinkedHashMap<>();
            for (String t : EVENT_TABLES) {
                List<String> cols = columns(st, t);
                if (cols.contains("start")) tables.put(t, cols);
            }
            long perCopy = tables.containsKey("CUPTI_ACTIVITY_KIND_KERNEL")
                    ? scalar(st, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL") : 0;
            if (perCopy == 0) throw new IllegalArgumentException(template + " has no kernels to repeat");
            copies = (int) Math.max(1, (kernels + perCopy - 1) / perCopy);
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            long corr = 0;
            Map<String, Long> rows = new LinkedHashMap<>();
            for (Map.Entry<String, List<String>> e : tables.entrySet()) {
                String t = e.getKey();
                rows.put(t, scalar(st, "SELECT COALESCE(MAX(rowid), 0) FROM " + t));
                first = Math.min(first, scalar(st, "SELECT COALESCE(MIN(start), " + Long.MAX_VALUE + ") FROM " + t));
                String end = e.getValue().contains("end") ? "MAX(COALESCE(end, start))" : "MAX(start)";
                last = Math.max(last, scalar(st, "SELECT COALESCE(" + end + ", " + Long.MIN_VALUE + ") FROM " + t));
                if (e.getValue().contains("correlationId")) {
                    corr = Math.max(corr, scalar(st, "SELECT COALESCE(MAX(correlationId), 0) FROM " + t));
                }
            }
            // a microsecond between copies, as between two captured iterations
            long span = last - first + 1_000;
            long stride = corr + 1;
            c.setAutoCommit(false);
            for (int k = 1; k < copies; k++) {
                for (Map.Entry<String, List<String>> e : tables.entrySet()) {
                    st.execute(copy(e.getKey(), e.getValue(), rows.get(e.getKey()), k * span, k * stride));
                }
                if (k % 64 == 0) c.commit();
            }
            c.commit();
        }
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return copies;
    }

    /** One copy of the template's rows of {@code table} (rowid ≤ {@code rows}), shifted. */
    static String copy(String table, List<String> cols, long rows, long dt, long dCorr) {
        List<String> values = new ArrayList<>();
        for (String col : cols) {
            values.add(switch (col) {
                case "start", "end", "timestamp" -> col + " + " + dt;
                case "correlationId" -> col + " + " + dCorr;
                default -> col;
            });
        }
        return String.format(Locale.ROOT, "INSERT INTO %s (%s) SELECT %s FROM %s WHERE rowid <= %d ORDER BY rowid", table,
                String.join(", ", cols), String.join(", ", values), table, rows);
    }

    /** The table's columns but an INTEGER PRIMARY KEY (an alias of the rowid each copy gets anew); none if absent. */
    private static List<String> columns(Statement st, String table) throws SQLException {
        List<String> cols = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("PRAGMA table_info(\"" + table + "\")")) {
            while (rs.next()) {
                boolean rowidAlias = rs.getInt("pk") == 1 && "INTEGER".equalsIgnoreCase(rs.getString("type"));
                if (!rowidAlias) cols.add(rs.getString("name"));
            }
        }
        return cols;
    }

    private static long scalar(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }
}
