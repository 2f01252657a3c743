package dlproflint.extract.nsys;

import dlproflint.findings.OneLine;
import dlproflint.extract.ProfileException;

import dlproflint.extract.common.ReadDeadline;
import dlproflint.extract.common.ReadOnlySqlite;
import dlproflint.extract.common.SqliteContent;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

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

    private NsysDatabase(Path file, Connection conn, ReadDeadline deadline, Set<String> unsorted) {
        this.file = file;
        this.conn = conn;
        this.deadline = deadline;
        this.unsorted = unsorted;
    }

    /** As {@link #open(Path, ReadDeadline)} with the default deadline for the file. */
    public static NsysDatabase open(Path file) throws ProfileException {
        return open(file, ReadDeadline.start(file, null));
    }

    /** Opens the export; every query on it stops at {@code deadline} (see {@link ReadOnlySqlite#open(Path, ReadDeadline)}). */
    public static NsysDatabase open(Path file, ReadDeadline deadline) throws ProfileException {
        NsysDatabase db = open(file, deadline, ConcurrentHashMap.newKeySet());
        try {
            String problem = SqliteContent.problem(db.conn, STRING_COLUMNS);
            if (problem != null) throw new ProfileException(file, problem);
        } catch (SQLException e) {
            db.close();
            if (ReadOnlySqlite.interrupted(e)) throw new ProfileException(file, deadline.message());
            throw new ProfileException(file, "cannot read as SQLite database: " + OneLine.of(e));
        } catch (ProfileException e) {
            db.close();
            throw e;
        }
        return db;
    }

    /** The string tables whose cells are checked by size before any is read ({@link SqliteContent}). */
    private static final java.util.List<String[]> STRING_COLUMNS = java.util.List.<String[]>of(new String[] {"StringIds", "value"});

    private static NsysDatabase open(Path file, ReadDeadline deadline, Set<String> unsorted) throws ProfileException {
        try {
            Connection c = ReadOnlySqlite.open(file, deadline);
            NsysDatabase db = new NsysDatabase(file, c, deadline, unsorted);
            db.loadTables();
            return db;
        } catch (SQLException e) {
            if (ReadOnlySqlite.interrupted(e)) throw new ProfileException(file, deadline.message());
            throw new ProfileException(file, "cannot open as SQLite database: " + OneLine.of(e));
        }
    }

    /**
     * A second connection to the same file, for a pass on another thread (SQLite serialises the calls on one
     * connection). What either learns about the tables' order is shared; the string cache is not.
     */
    NsysDatabase sibling() throws ProfileException {
        return open(file, deadline, unsorted);
    }

    /** Makes a statement running on this connection (on another thread) fail soon with an interrupt error. */
    void interrupt() {
        try {
            if (conn instanceof org.sqlite.SQLiteConnection c) c.getDatabase().interrupt();
        } catch (SQLException e) {
            // the pass runs to its end instead
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

    /** Orderings (table, filter, keys) a stream found the table not to be stored in, shared by siblings; see {@link OrderedScan}. */
    private final Set<String> unsorted;

    /** A stream of {@code table} (rows matching {@code where}, may be null) in the order of {@code keys}. */
    OrderedScan scan(String table, String where, String... keys) {
        return new OrderedScan(this, table, where, keys);
    }

    boolean knownUnsorted(String orderKey) {
        return unsorted.contains(orderKey);
    }

    void markUnsorted(String orderKey) {
        unsorted.add(orderKey);
    }

    /** What the streams of this connection learnt about the file's order, for another connection to it. */
    Set<String> unsortedOrders() {
        return Set.copyOf(unsorted);
    }

    void knowUnsorted(Set<String> orders) {
        unsorted.addAll(orders);
    }

    /**
     * The GPU activity tables: kernels, memcpys, memsets, in that order (the passes number them 0, 1, 2, and
     * take the first of equal start times in this order).
     */
    static final List<String> GPU_TABLES = List.of("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
            "CUPTI_ACTIVITY_KIND_MEMSET");

    /** The process id inside an nsys global thread or process id column (bits 24..47), as SQL. */
    static String pidOf(String globalIdColumn) {
        return "((" + globalIdColumn + " >> 24) & 16777215)";
    }

    /** {@link #pidOf(String)} of a value read (a NULL read as 0 gives 0, as SQL's NULL gives a NULL read as 0). */
    static long pidOf(long globalId) {
        return (globalId >> 24) & 16777215;
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
        return new ProfileException(file, what + ": " + OneLine.of(e), e);
    }

    /** A table the reader needs is a view in this file. */
    static final class ViewInsteadOfTable extends RuntimeException {
        ViewInsteadOfTable(String name) {
            super(name + " is a view, not a table: Nsight Systems exports define no views, and a view can run an "
                    + "arbitrarily long query; refusing to read it");
        }
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
