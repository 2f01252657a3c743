package dlproflint.extract.common;

import org.sqlite.core.CoreStatement;
import org.sqlite.core.DB;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A forward-only cursor over one query for the large sweeps of the readers. Through sqlite-jdbc's public
 * core API it steps the prepared statement and reads each column with one native call, where a JDBC
 * {@link ResultSet} costs two (type check, then value) plus bookkeeping: for a million kernel rows of six
 * columns that is about 0.2 s of CPU. With another JDBC driver (never in practice) it falls back to a
 * {@link ResultSet}. Columns are numbered from 0. A NULL reads as 0 ({@link #getLong}) or null
 * ({@link #getString}); {@link #isNull} tells them apart where that matters.
 */
public abstract class RowCursor implements AutoCloseable {
    private static final int SQLITE_ROW = 100;
    private static final int SQLITE_DONE = 101;
    private static final int SQLITE_NULL = 5;

    public static RowCursor open(Connection c, String sql) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        if (ps instanceof CoreStatement cs && cs.pointer != null) {
            try {
                DB db = cs.getDatabase();
                long stmt = cs.pointer.safeRunLong((d, ptr) -> ptr);
                return PhaseTimer.ON ? new Timed(ps, db, stmt, sql) : new Native(ps, db, stmt);
            } catch (RuntimeException | LinkageError e) {
                // an sqlite-jdbc without this API: use JDBC
            }
        }
        return new Jdbc(ps, ps.executeQuery());
    }

    /** Advances to the next row; false when there is none. */
    public abstract boolean next() throws SQLException;

    public abstract long getLong(int column) throws SQLException;

    public abstract int getInt(int column) throws SQLException;

    public abstract String getString(int column) throws SQLException;

    /**
     * A text column's UTF-8 bytes (null for NULL), without making a {@link String} of them: a pass that only looks at
     * most texts (a million NVTX ranges) saves the native buffer, the decoding and the string.
     */
    public byte[] getUtf8(int column) throws SQLException {
        String s = getString(column);
        return s == null ? null : s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    public abstract boolean isNull(int column) throws SQLException;

    @Override
    public abstract void close() throws SQLException;

    /**
     * Whether every value this cursor has given as an integer ({@link #getLong}, {@link #getInt}) was stored as one, or
     * as NULL: known where the rows are decoded from the file ({@link TableFileScan}); false where SQLite converted
     * them, which it does not say.
     */
    public boolean integersOnly() {
        return false;
    }

    private static class Native extends RowCursor {
        private final PreparedStatement ps;
        private final DB db;
        private final long stmt;
        private boolean done;

        Native(PreparedStatement ps, DB db, long stmt) {
            this.ps = ps;
            this.db = db;
            this.stmt = stmt;
        }

        @Override
        public boolean next() throws SQLException {
            if (done) return false;
            int rc = db.step(stmt);
            if (rc == SQLITE_ROW) return true;
            done = true;
            if (rc != SQLITE_DONE) db.throwex(rc);
            return false;
        }

        @Override
        public long getLong(int column) throws SQLException {
            return db.column_long(stmt, column);
        }

        @Override
        public int getInt(int column) throws SQLException {
            return db.column_int(stmt, column);
        }

        @Override
        public String getString(int column) throws SQLException {
            return db.column_text(stmt, column);
        }

        /** whether the database stores text in UTF-8 (SQLite's default, and every nsys export's); null until asked */
        private Boolean utf8;

        @Override
        public byte[] getUtf8(int column) throws SQLException {
            if (utf8 == null) utf8 = storesUtf8(ps.getConnection());
            // a text value's blob is its bytes in the database's encoding
            if (!utf8) return super.getUtf8(column);
            return db.column_blob(stmt, column); // null for NULL, an empty array for an empty text
        }

        private static boolean storesUtf8(Connection c) throws SQLException {
            try (java.sql.Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA encoding")) {
                return rs.next() && "UTF-8".equalsIgnoreCase(rs.getString(1));
            }
        }

        @Override
        public boolean isNull(int column) throws SQLException {
            return db.column_type(stmt, column) == SQLITE_NULL;
        }

        @Override
        public void close() throws SQLException {
            ps.close();
        }
    }

    /**
     * With {@code -Ddlproflint.timing=true}: on close, the query, its rows and the time SQLite and the native call
     * took to step through them, on stderr - where a read's time goes between SQLite (sorts, the per-row native
     * call) and the passes' own work.
     */
    private static final class Timed extends Native {
        private final String sql;
        private long stepNs;
        private long rows;

        Timed(PreparedStatement ps, DB db, long stmt, String sql) {
            super(ps, db, stmt);
            this.sql = sql;
        }

        @Override
        public boolean next() throws SQLException {
            long t = System.nanoTime();
            boolean row = super.next();
            stepNs += System.nanoTime() - t;
            if (row) rows++;
            return row;
        }

        @Override
        public void close() throws SQLException {
            System.err.printf("sql: %6.2f s stepping %,d rows [%s] %s%n", stepNs / 1e9, rows,
                    Thread.currentThread().getName(), sql.length() > 240 ? sql.substring(0, 240) + "..." : sql);
            super.close();
        }
    }

    private static final class Jdbc extends RowCursor {
        private final PreparedStatement ps;
        private final ResultSet rs;

        Jdbc(PreparedStatement ps, ResultSet rs) {
            this.ps = ps;
            this.rs = rs;
        }

        @Override
        public boolean next() throws SQLException {
            return rs.next();
        }

        @Override
        public long getLong(int column) throws SQLException {
            return rs.getLong(column + 1);
        }

        @Override
        public int getInt(int column) throws SQLException {
            return rs.getInt(column + 1);
        }

        @Override
        public String getString(int column) throws SQLException {
            return rs.getString(column + 1);
        }

        @Override
        public boolean isNull(int column) throws SQLException {
            return rs.getObject(column + 1) == null;
        }

        @Override
        public void close() throws SQLException {
            try {
                rs.close();
            } finally {
                ps.close();
            }
        }
    }
}
