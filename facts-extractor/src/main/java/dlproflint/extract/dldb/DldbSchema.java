package dlproflint.extract.dldb;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The tables and columns a DLProf database actually has. DLProf 1.x kept one layout (1.8.0 observed),
 * but older releases, partial writes and databases other tools edited lack parts of it; every query is
 * built from what exists, and what is missing is named once for the facts' warnings.
 */
final class DldbSchema {
    private final Connection c;
    private final Set<String> tables = new HashSet<>();
    private final Map<String, Set<String>> columns = new HashMap<>();
    private final TreeSet<String> missing = new TreeSet<>();

    DldbSchema(Connection c) throws SQLException {
        this.c = c;
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
            while (rs.next()) tables.add(rs.getString(1).toLowerCase(Locale.ROOT));
        }
    }

    /** The table exists; when it does not, it is remembered as missing. */
    boolean has(String table) {
        boolean h = tables.contains(table.toLowerCase(Locale.ROOT));
        if (!h) missing.add(table);
        return h;
    }

    boolean hasColumn(String table, String column) throws SQLException {
        if (!tables.contains(table.toLowerCase(Locale.ROOT))) return false;
        Set<String> cols = columns.get(table);
        if (cols == null) {
            cols = new HashSet<>();
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA table_info(" + table + ")")) {
                while (rs.next()) cols.add(rs.getString("name").toLowerCase(Locale.ROOT));
            }
            columns.put(table, cols);
        }
        boolean h = cols.contains(column.toLowerCase(Locale.ROOT));
        if (!h) missing.add(table + "." + column);
        return h;
    }

    /** {@code alias.column}, or {@code fallback} (an SQL literal) when the column does not exist. */
    String col(String table, String alias, String column, String fallback) throws SQLException {
        return hasColumn(table, column) ? alias + "." + column : fallback;
    }

    /** Tables and columns looked for and not found, sorted. */
    Set<String> missing() {
        return missing;
    }
}
