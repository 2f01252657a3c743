package dlproflint.extract.common;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A rowid table's rows in rowid order, decoded in Java from the table's B-tree in the database file, for the readers'
 * storage-order sweeps: what {@code select + " ORDER BY rowid"} gives through SQLite, for a quarter of the CPU. SQLite
 * steps through such a scan quickly; most of the time went to the native call per row and per column that brings each
 * value to Java (a million kernel rows of eight columns: nine million calls). The file is read a page at a time with
 * positional reads, as SQLite reads it; nothing is written.
 *
 * <p>Only what the sweeps ask is done here ({@link ScanQuery}: plain columns, {@code rowid}, integer and NULL
 * constants, {@code ifnull(column, integer)}, at most a {@code column IN (integers)} filter), over an ordinary rowid
 * table of a UTF-8 database whose columns are all stored (no generated ones) and whose selected columns default to
 * NULL (a row written before an {@code ALTER TABLE ADD COLUMN} then reads as SQLite reads it). Anything else -
 * a view, a {@code WITHOUT ROWID} table, another expression - makes {@link #open} answer null and the caller runs the
 * query through SQLite. Values convert as SQLite's {@code sqlite3_column_int64} and {@code sqlite3_column_text} convert
 * them ({@link #getLong}, {@link #getUtf8}). The connection's file is the one read: an immutable open, as
 * {@link ReadOnlySqlite} makes, reads the main file and nothing of a {@code -wal} beside it, and where that would lose
 * commits it opened a checkpointed copy instead.
 *
 * <p>{@code -Ddlproflint.sqlite.direct=false} sends every query through SQLite (comparisons, and a way out should a
 * file decode differently).
 */
public final class TableFileScan extends RowCursor {
    /** {@code -Ddlproflint.sqlite.direct=false}: every sweep through SQLite. */
    static final boolean ENABLED = !"false".equalsIgnoreCase(System.getProperty("dlproflint.sqlite.direct"));

    private static final int SQLITE_CORRUPT = 11;
    private static final int SQLITE_INTERRUPT = 9;
    private static final int LEAF_TABLE = 13;
    private static final int INTERIOR_TABLE = 5;
    /** deeper than any real table B-tree (SQLite itself stops at 20): a deeper walk is a cycle in a damaged file */
    private static final int MAX_DEPTH = 40;
    /** pages between looks at the deadline */
    private static final int DEADLINE_PAGES = 256;

    private final Connection connection;
    private final FileChannel file;
    private final Path path;
    private final ReadDeadline deadline;
    private final ScanQuery query;
    private final String sql;
    private final int pageSize;
    private final int usable;
    private final long pageCount;
    /** the B-tree pages from the root down to the leaf being read, and the next cell of each */
    private final byte[][] pages = new byte[MAX_DEPTH][];
    private final int[] pageNo = new int[MAX_DEPTH];
    private final int[] nextCell = new int[MAX_DEPTH];
    private int depth = -1;
    private long pagesRead;
    private long rows;
    private long decodeNs;

    // the current row: its rowid, and where each record column up to the last one needed lies
    private long rowid;
    private byte[] payload;
    private int payloadEnd;
    private final int[] serialType;
    private final int[] offset;
    /** columns the record holds (fewer than the table's for a row written before a column was added) */
    private int recordColumns;
    private byte[] overflow = new byte[0];
    private byte[] overflowPage;
    private boolean done;

    private TableFileScan(Connection connection, FileChannel file, Path path, ReadDeadline deadline, ScanQuery query,
                          String sql, int pageSize, int usable, int root) throws SQLException {
        this.connection = connection;
        this.file = file;
        this.path = path;
        this.deadline = deadline;
        this.query = query;
        this.sql = sql;
        this.pageSize = pageSize;
        this.usable = usable;
        try {
            this.pageCount = file.size() / pageSize;
        } catch (IOException e) {
            throw readFailure(e);
        }
        this.serialType = new int[query.recordColumnsNeeded()];
        this.offset = new int[query.recordColumnsNeeded()];
        push(root);
    }

    /**
     * The rows of {@code select} ({@code SELECT ... FROM table [WHERE ...]}, no ORDER BY) in rowid order, read from
     * the file of {@code c}'s main database; null when the query or the table is not one this class reads (the caller
     * then asks SQLite with {@code ORDER BY rowid}).
     */
    public static RowCursor open(Connection c, String select, ReadDeadline deadline) throws SQLException {
        if (!ENABLED) return null;
        ScanQuery.Parsed parsed = ScanQuery.parse(select);
        if (parsed == null) return null;
        Path path = mainFile(c);
        if (path == null) return null;
        Integer root = rootPage(c, parsed.table());
        if (root == null) return null;
        ScanQuery query = ScanQuery.bind(c, parsed);
        if (query == null) return null;
        FileChannel ch;
        try {
            ch = FileChannel.open(path, StandardOpenOption.READ);
        } catch (IOException e) {
            return null; // SQLite reads it its own way (and says what is wrong, if anything)
        }
        try {
            ByteBuffer header = ByteBuffer.allocate(100);
            readFully(ch, header, 0);
            byte[] h = header.array();
            if (!new dlproflint.extract.FileSniff(h, h.length).isSqlite()) {
                ch.close();
                return null;
            }
            int ps = ((h[16] & 255) << 8) | (h[17] & 255);
            int pageSize = ps == 1 ? 65536 : ps;
            int reserved = h[20] & 255;
            int encoding = ((h[56] & 255) << 24) | ((h[57] & 255) << 16) | ((h[58] & 255) << 8) | (h[59] & 255);
            // the file format versions: 1 rollback journal, 2 WAL; the texts in UTF-8 (1), as every export writes them
            if (pageSize < 512 || Integer.bitCount(pageSize) != 1 || h[18] < 1 || h[18] > 2 || h[19] < 1 || h[19] > 2
                    || encoding != 1 || pageSize - reserved < 480) {
                ch.close();
                return null;
            }
            return new TableFileScan(c, ch, path, deadline == null ? ReadDeadline.NONE : deadline, query, select,
                    pageSize, pageSize - reserved, root);
        } catch (IOException | SQLException | RuntimeException e) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // closing a read-only channel loses nothing
            }
            if (e instanceof SQLException s) throw s;
            return null;
        }
    }

    /**
     * The largest value of {@code columns} (plain column names) over every row of {@code table}, NULLs left out, as
     * {@code SELECT MAX(...)} gives it, read from the file: {@code none} when there is no row or every value is NULL;
     * null when the table is not one this class reads or holds a value other than an integer (SQLite's MAX orders
     * the types its own way: the caller asks SQLite).
     */
    public static Long maxInteger(Connection c, String table, java.util.List<String> columns, ReadDeadline deadline,
                                  long none) throws SQLException {
        if (!(open(c, "SELECT " + String.join(", ", columns) + " FROM " + table, deadline) instanceof TableFileScan scan)) {
            return null;
        }
        try (scan) {
            long max = Long.MIN_VALUE;
            boolean any = false;
            int n = columns.size();
            while (scan.next()) {
                for (int i = 0; i < n; i++) {
                    int t = scan.query.serialType(scan, i);
                    if (t == 0) continue;
                    if (t > 9 || t == 7) return null;
                    max = Math.max(max, scan.query.longOf(scan, i));
                    any = true;
                }
            }
            return any ? max : none;
        }
    }

    /** The file SQLite reads for {@code c}'s main database; null for one in memory or a temporary one. */
    private static Path mainFile(Connection c) throws SQLException {
        try (java.sql.Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA database_list")) {
            while (rs.next()) {
                if ("main".equals(rs.getString(2))) {
                    String f = rs.getString(3);
                    return f == null || f.isEmpty() ? null : Path.of(f);
                }
            }
        }
        return null;
    }

    /** The root page of an ordinary rowid table named {@code table}; null for a view, a virtual or WITHOUT ROWID table. */
    private static Integer rootPage(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT type, rootpage, sql FROM sqlite_master WHERE name = ? COLLATE NOCASE")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !"table".equals(rs.getString(1))) return null;
                int root = rs.getInt(2);
                String create = rs.getString(3);
                if (rs.next() || root < 1 || create == null) return null;
                String norm = create.toUpperCase(java.util.Locale.ROOT).replaceAll("\\s+", " ");
                // a WITHOUT ROWID table is an index B-tree (the words anywhere, even in a comment, only cost the speed-up)
                if (!norm.startsWith("CREATE TABLE") || norm.contains("WITHOUT ROWID")) return null;
                return root;
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // the walk

    private void push(int page) throws SQLException {
        if (depth + 1 >= MAX_DEPTH) throw corrupt("the B-tree is deeper than " + MAX_DEPTH + " pages");
        if (page < 1 || page > pageCount) throw corrupt("page " + page + " is outside the file");
        depth++;
        byte[] buf = pages[depth];
        if (buf == null) pages[depth] = buf = new byte[pageSize];
        readPage(page, buf);
        pageNo[depth] = page;
        nextCell[depth] = 0;
        int type = buf[headerAt(page)] & 255;
        if (type != LEAF_TABLE && type != INTERIOR_TABLE) throw corrupt("page " + page + " is not a table B-tree page");
    }

    private void readPage(int page, byte[] buf) throws SQLException {
        if (++pagesRead % DEADLINE_PAGES == 0 && deadline.passed()) {
            throw new SQLException("interrupted: the read's time limit passed (SQLITE_INTERRUPT)", null, SQLITE_INTERRUPT);
        }
        try {
            readFully(file, ByteBuffer.wrap(buf), (long) (page - 1) * pageSize);
        } catch (IOException e) {
            throw readFailure(e);
        }
    }

    private static void readFully(FileChannel ch, ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining()) {
            int n = ch.read(b, at + b.position());
            if (n < 0) throw new java.io.EOFException("the file ends inside page data");
        }
    }

    /** page 1 holds the file header before its B-tree page header */
    private static int headerAt(int page) {
        return page == 1 ? 100 : 0;
    }

    @Override
    public boolean next() throws SQLException {
        if (done) return false;
        long t = PhaseTimer.ON ? System.nanoTime() : 0;
        try {
            while (true) {
                if (!advance()) {
                    done = true;
                    return false;
                }
                if (query.matches(this)) {
                    rows++;
                    return true;
                }
            }
        } catch (ArrayIndexOutOfBoundsException e) {
            throw corrupt("a cell runs past its page (page " + pageNo[Math.max(depth, 0)] + ")");
        } finally {
            if (PhaseTimer.ON) decodeNs += System.nanoTime() - t;
        }
    }

    /** Moves to the next cell of a leaf, descending interior pages; false past the last one. */
    private boolean advance() throws SQLException {
        while (depth >= 0) {
            byte[] p = pages[depth];
            int h = headerAt(pageNo[depth]);
            int cells = u16(p, h + 3);
            int i = nextCell[depth]++;
            if ((p[h] & 255) == LEAF_TABLE) {
                if (i < cells) {
                    cell(p, u16(p, h + 8 + 2 * i));
                    return true;
                }
                depth--;
            } else if (i < cells) {
                push(u32(p, u16(p, h + 12 + 2 * i)));
            } else if (i == cells) {
                push(u32(p, h + 8)); // the right-most child
            } else {
                depth--;
            }
        }
        return false;
    }

    private int varintEnd;

    private long varint(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            int c = b[at + i] & 255;
            v = (v << 7) | (c & 127);
            if (c < 128) {
                varintEnd = at + i + 1;
                return v;
            }
        }
        varintEnd = at + 9;
        return (v << 8) | (b[at + 8] & 255);
    }

    /** Reads the leaf cell at {@code at} of the current page: its rowid and where its needed columns lie. */
    private void cell(byte[] p, int at) throws SQLException {
        if (at < 0 || at >= usable) throw corrupt("a cell pointer points outside page " + pageNo[depth]);
        long size = varint(p, at);
        rowid = varint(p, varintEnd);
        int local = varintEnd;
        if (size < 0 || size > Integer.MAX_VALUE - 16) throw corrupt("a record of " + size + " bytes");
        int maxLocal = usable - 35;
        if (size <= maxLocal) {
            payload = p;
            payloadEnd = local + (int) size;
            if (payloadEnd > usable) throw corrupt("a record runs past page " + pageNo[depth]);
            columns(local);
        } else {
            payload = spilled(p, local, (int) size, maxLocal);
            payloadEnd = (int) size;
            columns(0);
        }
    }

    /** The whole payload of a record larger than a page allows, its local part followed by its overflow chain. */
    private byte[] spilled(byte[] p, int local, int size, int maxLocal) throws SQLException {
        int minLocal = (usable - 12) * 32 / 255 - 23;
        int k = minLocal + (size - minLocal) % (usable - 4);
        int here = k <= maxLocal ? k : minLocal;
        if (overflow.length < size) overflow = new byte[Math.max(size, overflow.length * 2)];
        if (local + here + 4 > usable) throw corrupt("a record runs past page " + pageNo[depth]);
        System.arraycopy(p, local, overflow, 0, here);
        int next = u32(p, local + here);
        int filled = here;
        byte[] page = overflowPage == null ? overflowPage = new byte[pageSize] : overflowPage;
        long hops = 0;
        while (filled < size) {
            if (next < 1 || next > pageCount || ++hops > pageCount) throw corrupt("a broken overflow chain");
            readPage(next, page);
            int n = Math.min(size - filled, usable - 4);
            System.arraycopy(page, 4, overflow, filled, n);
            filled += n;
            next = u32(page, 0);
        }
        return overflow;
    }

    /** Where each record column up to the last one needed starts, and its serial type. */
    private void columns(int at) throws SQLException {
        long headerSize = varint(payload, at);
        int pos = varintEnd;
        long end = at + headerSize;
        if (headerSize < 1 || end > payloadEnd) throw corrupt("a record header runs past its record");
        int data = (int) end;
        int n = 0;
        while (n < serialType.length && pos < end) {
            long t = varint(payload, pos);
            pos = varintEnd;
            if (t > Integer.MAX_VALUE || t == 10 || t == 11) throw corrupt("a record with serial type " + t);
            serialType[n] = (int) t;
            offset[n] = data;
            data += size((int) t);
            n++;
        }
        if (data > payloadEnd) throw corrupt("a record's values run past it");
        recordColumns = n;
    }

    private static int size(int serialType) {
        switch (serialType) {
            case 0: case 8: case 9: return 0;
            case 1: return 1;
            case 2: return 2;
            case 3: return 3;
            case 4: return 4;
            case 5: return 6;
            case 6: case 7: return 8;
            default: return (serialType - 12) >> 1;
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // values of the current row, by record column (ScanQuery maps the select's columns onto these)

    long rowid() {
        return rowid;
    }

    /** The record column's serial type; 0 (NULL) for a column the record does not hold. */
    int type(int recordColumn) {
        return recordColumn < recordColumns ? serialType[recordColumn] : 0;
    }

    /** The column as {@code sqlite3_column_int64} gives it. */
    long longOf(int recordColumn) throws SQLException {
        int t = type(recordColumn);
        int o = recordColumn < recordColumns ? offset[recordColumn] : 0;
        byte[] b = payload;
        switch (t) {
            case 0: return 0;
            case 1: return b[o];
            case 2: return (short) u16(b, o);
            case 3: return (b[o] << 16) | ((b[o + 1] & 255) << 8) | (b[o + 2] & 255);
            case 4: return u32(b, o);
            case 5: return ((long) (short) u16(b, o) << 32) | (u32(b, o + 2) & 0xffffffffL);
            case 6: return u64(b, o);
            case 7:
                converted = true;
                return SqliteValues.realToInt64(Double.longBitsToDouble(u64(b, o)));
            case 8: return 0;
            case 9: return 1;
            default:
                converted = true;
                return SqliteValues.atoi64(b, o, size(t));
        }
    }

    /** The column as {@code sqlite3_column_text} gives it, as its UTF-8 bytes; null for NULL. */
    byte[] utf8Of(int recordColumn) throws SQLException {
        int t = type(recordColumn);
        if (t == 0) return null;
        if (t >= 12) {
            int o = offset[recordColumn];
            return java.util.Arrays.copyOfRange(payload, o, o + size(t));
        }
        if (t == 7) return SqliteValues.realText(connection, Double.longBitsToDouble(u64(payload, offset[recordColumn])));
        return SqliteValues.integerText(longOf(recordColumn));
    }

    /** The column as a REAL value's 8 bytes, or the integer value's; for comparisons of a filter. */
    double doubleOf(int recordColumn) throws SQLException {
        int t = type(recordColumn);
        return t == 7 ? Double.longBitsToDouble(u64(payload, offset[recordColumn])) : (double) longOf(recordColumn);
    }

    private static int u16(byte[] b, int at) {
        return ((b[at] & 255) << 8) | (b[at + 1] & 255);
    }

    private static int u32(byte[] b, int at) {
        return ((b[at] & 255) << 24) | ((b[at + 1] & 255) << 16) | ((b[at + 2] & 255) << 8) | (b[at + 3] & 255);
    }

    /** 8 big-endian bytes: a 64-bit integer's, or a REAL's bits */
    private static long u64(byte[] b, int at) {
        return ((long) u32(b, at) << 32) | (u32(b, at + 4) & 0xffffffffL);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // RowCursor: columns of the select, from 0

    @Override
    public long getLong(int column) throws SQLException {
        return query.longOf(this, column);
    }

    @Override
    public int getInt(int column) throws SQLException {
        return (int) query.longOf(this, column);
    }

    @Override
    public String getString(int column) throws SQLException {
        byte[] b = query.utf8Of(this, column);
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    @Override
    public byte[] getUtf8(int column) throws SQLException {
        return query.utf8Of(this, column);
    }

    /** a value given as an integer was stored as a real or a text */
    private boolean converted;

    @Override
    public boolean integersOnly() {
        return !converted;
    }

    @Override
    public boolean isNull(int column) throws SQLException {
        return query.isNull(this, column);
    }

    @Override
    public void close() throws SQLException {
        if (PhaseTimer.ON) {
            System.err.printf("file: %6.2f s decoding %,d rows (%,d pages) [%s] %s%n", decodeNs / 1e9, rows, pagesRead,
                    Thread.currentThread().getName(), sql.length() > 240 ? sql.substring(0, 240) + "..." : sql);
        }
        try {
            file.close();
        } catch (IOException e) {
            throw readFailure(e);
        }
    }

    private SQLException corrupt(String what) {
        return new SQLException("database disk image is malformed: " + what + " (" + path.getFileName() + ")", null,
                SQLITE_CORRUPT);
    }

    private SQLException readFailure(IOException e) {
        return new SQLException("cannot read " + path.getFileName() + ": " + e.getMessage(), null, 10, e);
    }
}
