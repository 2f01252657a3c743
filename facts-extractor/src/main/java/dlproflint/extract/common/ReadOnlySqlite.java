package dlproflint.extract.common;

import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Opens SQLite files strictly read-only: {@code mode=ro} plus {@code immutable=1}, so SQLite neither
 * writes nor creates journal/WAL/SHM files, even in a folder the user cannot write to.
 */
public final class ReadOnlySqlite {
    private ReadOnlySqlite() {
    }

    public static Connection open(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setOpenMode(SQLiteOpenMode.READONLY);
        config.setOpenMode(SQLiteOpenMode.OPEN_URI);
        // sorts of large ORDER BY queries stay off the disk (the input folder may not be writable)
        config.setTempStore(SQLiteConfig.TempStore.MEMORY);
        String uri = "jdbc:sqlite:file:" + file.toAbsolutePath().toUri().getRawPath() + "?mode=ro&immutable=1";
        return config.createConnection(uri);
    }

    public static boolean hasTable(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    public static String string(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    /** An exception's message on one bounded line (sqlite-jdbc's "[SQLITE_xxx] ..." prefix kept: it names the problem). */
    public static String oneLine(Throwable e) {
        return dlproflint.findings.OneLine.of(e);
    }
}
