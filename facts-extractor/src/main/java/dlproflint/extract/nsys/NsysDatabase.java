package dlproflint.extract.nsys;

import dlproflint.extract.ProfileException;

import dlproflint.extract.common.ReadDeadline;
import dlproflint.extract.common.ReadOnlySqlite;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A read-only connection to an nsys export plus what its schema offers. The file is opened as an immutable
 * SQLite URI ({@code mode=ro&immutable=1}): SQLite takes no locks and creates no journal, WAL or SHM file,
 * so it works in read-only folders and never changes a byte.
 */
public final class NsysDatabase implements AutoCloseable {
    private final Path file;
    private final Connection conn;
    private final Set<String> tables = new HashSet<>();
    /** Views are not tables: nsys writes none, and a view can run any query (a recursive one for ever). */
    private final Set<String> views = new HashSet<>();
    private final ReadDeadline deadline;
    private final Map<String, Set<String>> columns = new HashMap<>();
    private final Map<Long, String> strings = new HashMap<>();
    private PreparedStatement stringLookup;

    private NsysDatabase(Path file, Connection conn, ReadDeadline deadline) {
        this.file = file;
        this.conn = conn;
        this.deadline = deadline;
    }

    /** As {@link #open(Path, ReadDeadline)} with the default deadline for the file. */
    public static NsysDatabase open(Path file) throws ProfileException {
        return open(file, ReadDeadline.start(file, null));
    }

    /** Opens the export; every query on it stops at {@code deadline} (see {@link ReadOnlySqlite#open(Path, ReadDeadline)}). */
    public static NsysDatabase open(Path file, ReadDeadline deadline) throws ProfileException {
        try {
            Connection c = ReadOnlySqlite.open(file, deadline);
            NsysDatabase db = new NsysDatabase(file, c, deadline);
            db.loadTables();
            return db;
        } catch (SQLException e) {
            if (ReadOnlySqlite.interrupted(e)) throw new ProfileException(file, deadline.message());
            throw new ProfileException(file, "cannot open as SQLite database: " + oneLine(e));
        }
    }

    private void loadTables() throws SQLException {
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
            while (rs.next()) tables.add(rs.getString(1));
        }
        views.addAll(ReadOnlySqlite.views(conn));
    }

    public Path file() {
        return file;
    }

    public Connection connection() {
        return conn;
    }

    /**
     * Whether the export has {@code table}.
     *
     * @throws ViewInsteadOfTable when the file defines a view of that name: the reader refuses it rather
     *                             than run whatever query the view holds
     */
    public boolean has(String table) {
        if (views.contains(table)) throw new ViewInsteadOfTable(table);
        return tables.contains(table);
    }

    /** The deadline every query on this database runs under. */
    public ReadDeadline deadline() {
        return deadline;
    }

    public Set<String> tables() {
        return tables;
    }

    public boolean hasColumn(String table, String column) {
        return columns(table).contains(column.toLowerCase(Locale.ROOT));
    }

    public Set<String> columns(String table) {
        return columns.computeIfAbsent(table, t -> {
            Set<String> s = new HashSet<>();
            if (!tables.contains(t)) return s;
            try (Statement st = conn.createStatement();
                 ResultSet rs = st.executeQuery("PRAGMA table_info(\"" + t.replace("\"", "") + "\")")) {
                while (rs.next()) s.add(rs.getString("name").toLowerCase(Locale.ROOT));
            } catch (SQLException e) {
                // treated as a table without columns: every optional read is skipped
            }
            return s;
        });
    }

    /** The column expression if present, else the given default SQL literal. */
    public String col(String table, String column, String fallback) {
        return hasColumn(table, column) ? column : fallback;
    }

    /** StringIds lookup with a cache (distinct names only: kernels, APIs, registered NVTX strings). */
    public String string(long id) throws SQLException {
        String v = strings.get(id);
        if (v != null || strings.containsKey(id)) return v;
        if (!has("StringIds")) return null;
        if (stringLookup == null) stringLookup = conn.prepareStatement("SELECT value FROM StringIds WHERE id = ?");
        stringLookup.setLong(1, id);
        try (ResultSet rs = stringLookup.executeQuery()) {
            v = rs.next() ? rs.getString(1) : null;
        }
        strings.put(id, v);
        return v;
    }

    private final Map<String, Boolean> sortedCache = new HashMap<>();

    /**
     * An ORDER BY clause for streaming {@code table} in the order of {@code keys} (SQL expressions, a key may end
     * in {@code " DESC"}). nsys writes most tables already in time order, so a cheap rowid-order scan of the key
     * columns checks that first; then the stream is read in rowid order and SQLite sorts nothing. Otherwise
     * SQLite sorts (in memory or temp files, never next to the profile).
     */
    public String orderBy(String table, String where, String... keys) throws SQLException {
        String joined = String.join(", ", keys);
        String cacheKey = table + "|" + where + "|" + joined;
        Boolean sorted = sortedCache.get(cacheKey);
        if (sorted == null) {
            sorted = inRowidOrder(table, where, keys);
            sortedCache.put(cacheKey, sorted);
        }
        return sorted ? " ORDER BY rowid" : " ORDER BY " + joined;
    }

    private boolean inRowidOrder(String table, String where, String[] keys) throws SQLException {
        int n = keys.length;
        boolean[] desc = new boolean[n];
        StringBuilder sel = new StringBuilder();
        for (int i = 0; i < n; i++) {
            String k = keys[i].trim();
            if (k.toUpperCase(Locale.ROOT).endsWith(" DESC")) {
                desc[i] = true;
                k = k.substring(0, k.length() - 5);
            }
            if (i > 0) sel.append(", ");
            sel.append("COALESCE(").append(k).append(", 0)");
        }
        long[] prev = null;
        long[] cur = new long[n];
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT " + sel + " FROM " + table + (where == null ? "" : " WHERE " + where)
                     + " ORDER BY rowid")) {
            while (rs.next()) {
                for (int i = 0; i < n; i++) cur[i] = rs.getLong(i + 1);
                if (prev == null) {
                    prev = new long[n];
                } else {
                    for (int i = 0; i < n; i++) {
                        int c = Long.compare(cur[i], prev[i]);
                        if (desc[i]) c = -c;
                        if (c < 0) return false;
                        if (c > 0) break;
                    }
                }
                System.arraycopy(cur, 0, prev, 0, n);
            }
        } catch (SQLException e) {
            // views or WITHOUT ROWID tables have no rowid: let SQLite sort
            if (String.valueOf(e.getMessage()).contains("rowid")) return false;
            throw e;
        }
        return true;
    }

    /** A single scalar (first column of the first row) or null. */
    public String scalar(String sql) throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    public long scalarLong(String sql, long fallback) throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            if (rs.next()) {
                long v = rs.getLong(1);
                return rs.wasNull() ? fallback : v;
            }
            return fallback;
        }
    }

    public ProfileException fail(String what, SQLException e) {
        if (ReadOnlySqlite.interrupted(e)) return new ProfileException(file, deadline.message(), e);
        return new ProfileException(file, what + ": " + oneLine(e), e);
    }

    /** A table the reader needs is a view in this file. */
    static final class ViewInsteadOfTable extends RuntimeException {
        ViewInsteadOfTable(String name) {
            super(name + " is a view, not a table: Nsight Systems exports define no views, and a view can run an "
                    + "arbitrarily long query; refusing to read it");
        }
    }

    static String oneLine(Throwable e) {
        return ReadOnlySqlite.oneLine(e);
    }

    @Override
    public void close() {
        try {
            if (stringLookup != null) stringLookup.close();
            conn.close();
        } catch (SQLException ignored) {
            // closing a read-only connection cannot lose data
        }
    }
}
