package dlproflint.extract.common;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What an SQLite profile may hold before a reader touches a row. Neither nsys nor DLProf writes generated columns,
 * and no name they write is megabytes long; a file that has them is made to cost memory or time:
 * <ul>
 *   <li>a <b>generated column</b> is computed each time it is read (one of 200 MB per row made a DLProf database
 *       of 225 rows take 6.2 GB): refused by its schema alone, whatever it computes;</li>
 *   <li>a <b>text cell</b> of a string table larger than {@link #MAX_CELL_BYTES} would be loaded whole by the driver:
 *       refused by its length, which SQLite knows without loading the cell ({@code octet_length}).</li>
 * </ul>
 */
public final class SqliteContent {
    /** The largest text cell a string table may hold (a kernel name of a megabyte is already absurd). */
    public static final long MAX_CELL_BYTES = 16L << 20;

    private SqliteContent() {
    }

    /** A phrase saying why the file is refused, or null. */
    public static String problem(Connection c, List<String[]> stringColumns) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
            while (rs.next()) tables.add(rs.getString(1));
        }
        for (String t : tables) {
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("PRAGMA table_xinfo(\"" + t.replace("\"", "\"\"") + "\")")) {
                while (rs.next()) {
                    int hidden = rs.getInt("hidden");
                    if (hidden == 2 || hidden == 3) {
                        return "table " + t + " has a generated column '" + rs.getString("name") + "' (computed "
                                + (hidden == 2 ? "each time it is read" : "when written")
                                + "); profiles are never written with one, and it can cost any amount of time and memory";
                    }
                }
            }
        }
        for (String[] tc : stringColumns) {
            if (!tables.contains(tc[0])) continue;
            try (PreparedStatement ps = c.prepareStatement("SELECT max(octet_length(\"" + tc[1] + "\")) FROM \"" + tc[0] + "\"");
                 ResultSet rs = ps.executeQuery()) {
                long max = rs.next() ? rs.getLong(1) : 0;
                if (max > MAX_CELL_BYTES) {
                    return "table " + tc[0] + " holds a " + tc[1] + " of " + (max >> 20) + " MiB; names and strings of at most "
                            + (MAX_CELL_BYTES >> 20) + " MiB are read";
                }
            } catch (SQLException e) {
                if (ReadOnlySqlite.interrupted(e)) throw e;
                // a table without that column: the reader says what is wrong with it
            }
        }
        return null;
    }
}
