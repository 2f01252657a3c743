package dlproflint.extract.common;

import org.sqlite.ProgressHandler;
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
 * writes nor creates journal/WAL/SHM files, even in a folder the user cannot write to; and under a
 * deadline, so no query runs for ever. A database whose newest commits are in its {@code -wal} file, or whose
 * path is longer than SQLite takes, is read from a private copy ({@link SqliteLocalCopy}).
 */
public final class ReadOnlySqlite {
    private ReadOnlySqlite() {
    }

    /** SQLite's result code for a statement stopped by the progress handler. */
    private static final int SQLITE_INTERRUPT = 9;
    /** The progress handler runs every this many virtual-machine instructions (a few microseconds). */
    private static final int PROGRESS_STEPS = 10_000;

    /** As {@link #open(Path, ReadDeadline)} with no deadline (tests and tools; readers always pass one). */
    public static Connection open(Path file) throws SQLException {
        return open(file, ReadDeadline.NONE);
    }

    /**
     * Opens {@code file} read-only; every statement on the connection is stopped (SQLITE_INTERRUPT, see
     * {@link #interrupted}) once {@code deadline} has passed, checked by a progress handler while SQLite
     * steps, so a query the file makes endless (a view over a recursive query) cannot hang the read.
     */
    public static Connection open(Path file, ReadDeadline deadline) throws SQLException {
        Connection c = connect(file);
        if (deadline != ReadDeadline.NONE) {
            try {
                ProgressHandler.setHandler(c, PROGRESS_STEPS, new ProgressHandler() {
                    @Override
                    protected int progress() {
                        return deadline.passed() ? 1 : 0;
                    }
                });
            } catch (SQLException e) {
                c.close();
                throw e;
            }
        }
        return c;
    }

    /** Whether {@code e} is a statement stopped by the deadline's progress handler. */
    public static boolean interrupted(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && (s.getErrorCode() == SQLITE_INTERRUPT
                    || String.valueOf(s.getMessage()).contains("SQLITE_INTERRUPT"))) {
                return true;
            }
        }
        return false;
    }

    /** The names of the views the file defines. */
    public static java.util.Set<String> views(Connection c) throws SQLException {
        java.util.Set<String> out = new java.util.TreeSet<>();
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'view'")) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    private static Connection connect(Path file) throws SQLException {
        SqliteLocalCopy.Lease lease = SqliteLocalCopy.lease(file);
        try {
            return connect(lease);
        } catch (SQLException | RuntimeException e) {
            lease.release().run();
            throw e;
        }
    }

    /** A connection that gives its {@link SqliteLocalCopy} back when it closes. */
    private static final class Releasing extends org.sqlite.jdbc4.JDBC4Connection {
        private Runnable release;

        Releasing(String url, java.util.Properties props, Runnable release) throws SQLException {
            super(url, url.substring("jdbc:sqlite:".length()), props);
            this.release = release;
        }

        @Override
        public void close() throws SQLException {
            try {
                super.close();
            } finally {
                Runnable r;
                synchronized (this) {
                    r = release;
                    release = null;
                }
                if (r != null) r.run();
            }
        }
    }

    private static Connection connect(SqliteLocalCopy.Lease lease) throws SQLException {
        Path file = lease.file();
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setOpenMode(SQLiteOpenMode.READONLY);
        config.setOpenMode(SQLiteOpenMode.OPEN_URI);
        // Memory stays bounded whatever the profile's size: the page cache holds at most CACHE_KIB, and a
        // large ORDER BY sorts that much in memory, then spills sorted runs to temporary files (SQLite's
        // temporary folder, never next to the profile) instead of holding the whole table in RAM.
        config.setTempStore(SQLiteConfig.TempStore.FILE);
        config.setCacheSize(-CACHE_KIB);
        String uri = "jdbc:sqlite:file:" + file.toAbsolutePath().toUri().getRawPath() + "?mode=ro&immutable=1";
        Connection c = lease.copied() ? new Releasing(uri, config.toProperties(), lease.release()) : config.createConnection(uri);
        try (Statement st = c.createStatement()) {
            // helper threads for those sorts: a sort of ten million rows then uses both cores
            st.execute("PRAGMA threads = " + Math.min(4, Runtime.getRuntime().availableProcessors()));
        }
        return c;
    }

    /**
     * Page cache and in-memory sort budget of one connection. The passes read the tables once, in order, so the cache
     * only needs the pages in use, and a sort merges its spilled runs at disk speed: 8 MiB rather than 32 MiB took
     * 50-85 MB off the peak RSS of the 1M and 10M bench profiles (two connections, each with a sort beside it) for
     * 0-5 % of wall time (docs/benchmarks.md).
     */
    static final int CACHE_KIB = 8 * 1024;

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

}
