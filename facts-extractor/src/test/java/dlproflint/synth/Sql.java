package dlproflint.synth;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Plain-JDBC read-back of generated files (read-only connections; no reader code involved). */
final class Sql implements AutoCloseable {
    private final Connection conn;

    private Sql(Connection conn) {
        this.conn = conn;
    }

    static Sql open(Path file) throws SQLException {
        org.sqlite.SQLiteConfig cfg = new org.sqlite.SQLiteConfig();
        cfg.setReadOnly(true);
        return new Sql(DriverManager.getConnection("jdbc:sqlite:file:" + file.toAbsolutePath() + "?mode=ro",
                cfg.toProperties()));
    }

    long count(String sql) throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    List<List<Object>> rows(String sql) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                Object[] row = new Object[md.getColumnCount()];
                for (int i = 0; i < row.length; i++) {
                    Object v = rs.getObject(i + 1);
                    row[i] = v instanceof Integer n ? Long.valueOf(n) : v; // the driver narrows small integers
                }
                out.add(Arrays.asList(row));
            }
        }
        return out;
    }

    List<String> strings(String sql) throws SQLException {
        return rows(sql).stream().map(r -> String.valueOf(r.get(0))).toList();
    }

    boolean hasTable(String name) throws SQLException {
        return count("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='" + name + "'") == 1;
    }

    /** Column name, declared type, NOT NULL and primary-key flag of every column, in order. */
    List<List<Object>> columns(String table) throws SQLException {
        return rows("SELECT name, type, \"notnull\", pk FROM pragma_table_info('" + table + "')");
    }

    @Override
    public void close() throws SQLException {
        conn.close();
    }
}
