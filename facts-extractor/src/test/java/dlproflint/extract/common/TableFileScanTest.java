package dlproflint.extract.common;

import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TableFileScan} against SQLite itself: the same query read from the file and through SQLite ({@code ORDER BY
 * rowid}) gives the same rows, column by column, as integers, as text and as NULL or not, on files SQLite wrote with
 * every kind of value and layout the decoder meets (serial types, overflow chains, page sizes, deep B-trees, rowid
 * aliases, records shorter than the table), and on the bundled nsys export; what it does not read goes to SQLite.
 */
class TableFileScanTest {
    @TempDir
    Path dir;

    private Connection write(String name, int pageSize, String... statements) throws SQLException {
        Path f = dir.resolve(name);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + f); Statement st = c.createStatement()) {
            st.execute("PRAGMA page_size = " + pageSize);
            for (String s : statements) st.execute(s);
        }
        return ReadOnlySqlite.open(f);
    }

    private static Connection writable(Path f) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + f);
    }

    /** Every row and column of {@code select} through the file and through SQLite; the rows read. */
    private static int assertSameAsSqlite(Connection c, String select) throws SQLException {
        int columns = select.substring(0, select.toUpperCase().indexOf(" FROM ")).split(",(?![^(]*\\))").length;
        try (RowCursor direct = TableFileScan.open(c, select, ReadDeadline.NONE);
             RowCursor sqlite = RowCursor.open(c, select + " ORDER BY rowid")) {
            assertNotNull(direct, "read from the file: " + select);
            assertTrue(direct instanceof TableFileScan);
            int rows = 0;
            while (sqlite.next()) {
                assertTrue(direct.next(), "row " + rows + " of " + select);
                for (int col = 0; col < columns; col++) {
                    String at = "row " + rows + " column " + col + " of " + select;
                    assertEquals(sqlite.isNull(col), direct.isNull(col), at + ": NULL");
                    assertEquals(sqlite.getLong(col), direct.getLong(col), at + ": as integer");
                    assertEquals(sqlite.getInt(col), direct.getInt(col), at + ": as int");
                    assertArrayEquals(sqlite.getUtf8(col), direct.getUtf8(col), at + ": as text");
                    assertEquals(sqlite.getString(col), direct.getString(col), at + ": as string");
                }
                rows++;
            }
            assertFalse(direct.next(), "no rows after SQLite's last in " + select);
            return rows;
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {512, 1024, 4096, 65536})
    void everyKindOfValueReadsAsSqliteReadsIt(int pageSize) throws SQLException {
        Path f = dir.resolve("values-" + pageSize + ".sqlite");
        Random r = new Random(pageSize);
        try (Connection w = writable(f); Statement st = w.createStatement()) {
            st.execute("PRAGMA page_size = " + pageSize);
            st.execute("CREATE TABLE t (start INTEGER NOT NULL, end INTEGER, text TEXT, textId INTEGER, eventType INTEGER,"
                    + " ratio REAL, data BLOB, anything)");
            w.setAutoCommit(false);
            try (PreparedStatement ps = w.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                // the integer widths (serial types 1-6), 0 and 1 (8 and 9), the ends of the range, NULL
                long[] ints = {0, 1, -1, 127, -128, 128, 32767, -32768, 32768, 8388607, -8388608, 8388608, 2147483647L,
                        -2147483648L, 2147483648L, 140737488355327L, -140737488355328L, 140737488355328L,
                        Long.MAX_VALUE, Long.MIN_VALUE};
                for (int i = 0; i < 6000; i++) {
                    ps.setLong(1, ints[i % ints.length] + (i / ints.length));
                    if (i % 7 == 0) ps.setNull(2, java.sql.Types.INTEGER); else ps.setLong(2, r.nextLong());
                    switch (i % 6) {
                        case 0 -> ps.setNull(3, java.sql.Types.VARCHAR);
                        case 1 -> ps.setString(3, "aten::conv2d, seq = " + i);
                        case 2 -> ps.setString(3, "é∑ – ünïcode " + i);
                        case 3 -> ps.setString(3, "x".repeat(r.nextInt(3 * pageSize))); // overflow chains
                        case 4 -> ps.setString(3, "");
                        default -> ps.setString(3, "12ms"); // text read as an integer: its leading digits
                    }
                    if (i % 3 == 0) ps.setNull(4, java.sql.Types.INTEGER); else ps.setLong(4, i);
                    ps.setLong(5, new long[] {34, 59, 60, 75, 1}[i % 5]);
                    ps.setDouble(6, (i % 11) * 0.37 - 1.1);
                    byte[] blob = new byte[i % 9 == 0 ? 2 * pageSize : i % 9];
                    r.nextBytes(blob);
                    ps.setBytes(7, blob);
                    switch (i % 5) { // a column without a type keeps what it is given
                        case 0 -> ps.setDouble(8, 1e300 * (i % 2 == 0 ? 1 : -1));
                        case 1 -> ps.setString(8, "  -42 apples");
                        case 2 -> ps.setString(8, "99999999999999999999999");
                        case 3 -> ps.setDouble(8, 2.5);
                        default -> ps.setLong(8, -7);
                    }
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            // a REAL and texts stored in the integer columns (INTEGER affinity keeps what it cannot convert)
            st.execute("INSERT INTO t (start, end, text, eventType) VALUES (1.5, 'abc', 42, 59.0)");
            st.execute("INSERT INTO t (start, end, text, eventType) VALUES (-2.75, '  +17x', 3.25, 'sixty')");
            w.commit();
        }
        try (Connection c = ReadOnlySqlite.open(f)) {
            assertEquals(6002, assertSameAsSqlite(c,
                    "SELECT start, end, text, ifnull(textId, -1), eventType, ratio, data, anything, rowid FROM t"));
            assertSameAsSqlite(c, "SELECT anything, 0, NULL, -1, textId, text FROM t WHERE eventType IN (34, 59, 60, 75)");
            assertSameAsSqlite(c, "SELECT start FROM t WHERE eventType = 59");
            assertSameAsSqlite(c, "SELECT rowid, oid, _rowid_ FROM t");
        }
    }

    @Test
    void deepTreesRowidAliasesAndGapsReadInRowidOrder() throws SQLException {
        Path f = dir.resolve("deep.sqlite");
        try (Connection w = writable(f); Statement st = w.createStatement()) {
            st.execute("PRAGMA page_size = 512");
            st.execute("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)");
            w.setAutoCommit(false);
            try (PreparedStatement ps = w.prepareStatement("INSERT OR IGNORE INTO StringIds VALUES (?, ?)")) {
                Random r = new Random(7);
                for (int i = 0; i < 40_000; i++) {
                    ps.setLong(1, r.nextInt(Integer.MAX_VALUE)); // inserted out of rowid order
                    ps.setString(2, "kernel_" + i);
                    ps.addBatch();
                    if (i % 1000 == 999) ps.executeBatch();
                }
            }
            w.commit();
            st.execute("DELETE FROM StringIds WHERE id % 3 = 0"); // freed pages, emptier leaves
        }
        try (Connection c = ReadOnlySqlite.open(f)) {
            int rows = assertSameAsSqlite(c, "SELECT id, value, rowid FROM StringIds");
            assertTrue(rows > 20_000, rows + " rows");
            // the alias reads as the rowid, also through ifnull
            assertSameAsSqlite(c, "SELECT ifnull(id, -1), value FROM StringIds");
        }
    }

    @Test
    void rowsWrittenBeforeAColumnWasAddedReadItAsNull() throws SQLException {
        try (Connection c = write("added.sqlite", 4096,
                "CREATE TABLE t (a INTEGER, b TEXT)",
                "INSERT INTO t VALUES (1, 'one'), (2, 'two')",
                "ALTER TABLE t ADD COLUMN c INTEGER",
                "ALTER TABLE t ADD COLUMN d INTEGER DEFAULT 7",
                "INSERT INTO t VALUES (3, 'three', 33, 333)")) {
            assertEquals(3, assertSameAsSqlite(c, "SELECT a, b, c, ifnull(c, -1) FROM t"));
            // a default other than NULL would have to be supplied for the short records: SQLite reads it
            assertNull(TableFileScan.open(c, "SELECT a, d FROM t", ReadDeadline.NONE));
        }
    }

    @Test
    void whatTheFileReaderDoesNotReadIsLeftToSqlite() throws SQLException {
        try (Connection c = write("others.sqlite", 4096,
                "CREATE TABLE t (a INTEGER, b TEXT, kind TEXT)",
                "CREATE TABLE w (k INTEGER PRIMARY KEY, v INTEGER) WITHOUT ROWID",
                "CREATE TABLE g (a INTEGER, b INTEGER GENERATED ALWAYS AS (a * 2) VIRTUAL)",
                "CREATE VIEW v AS SELECT a FROM t",
                "INSERT INTO t VALUES (1, 'x', '59')")) {
            for (String q : List.of("SELECT k, v FROM w", "SELECT a FROM g", "SELECT a FROM v", "SELECT a + 1 FROM t",
                    "SELECT a FROM t WHERE a > 0", "SELECT a FROM t WHERE kind IN (59)", "SELECT missing FROM t",
                    "SELECT a FROM nothing", "SELECT a, b FROM t ORDER BY a", "SELECT DISTINCT a FROM t")) {
                assertNull(TableFileScan.open(c, q, ReadDeadline.NONE), q);
            }
            assertNotNull(TableFileScan.open(c, "select A, B from T where A in ( 1 ,2 )", ReadDeadline.NONE));
        }
    }

    @Test
    void aPassedDeadlineStopsTheReadAsSqlitesProgressHandlerWould() throws SQLException {
        try (Connection c = write("long.sqlite", 512, "CREATE TABLE t (a INTEGER, b TEXT)",
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000) "
                        + "INSERT INTO t SELECT i, printf('%040d', i) FROM n");
             RowCursor rows = TableFileScan.open(c, "SELECT a, b FROM t", new ReadDeadline(System.nanoTime() - 1, null))) {
            SQLException e = assertThrows(SQLException.class, () -> {
                while (rows.next()) rows.getLong(0);
            });
            assertTrue(ReadOnlySqlite.interrupted(e), e.getMessage());
        }
    }

    @Test
    void aDamagedPageIsAMalformedDatabaseNotWrongRows() throws Exception {
        Path f = dir.resolve("damaged.sqlite");
        int root;
        try (Connection w = writable(f); Statement st = w.createStatement()) {
            st.execute("PRAGMA page_size = 512");
            st.execute("CREATE TABLE t (a INTEGER, b TEXT)");
            st.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) "
                    + "INSERT INTO t SELECT i, 'row ' || i FROM n");
            try (ResultSet rs = st.executeQuery("SELECT rootpage FROM sqlite_master WHERE name = 't'")) {
                rs.next();
                root = rs.getInt(1);
            }
        }
        // the root (an interior page) points its right-most child back at itself, and its first child outside the file
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            long at = (long) (root - 1) * 512;
            raf.seek(at);
            assertEquals(5, raf.read(), "the root of 5000 rows is an interior page");
            raf.seek(at + 8);
            raf.writeInt(root);
            raf.seek(at + 3);
            int cells = raf.readUnsignedShort();
            assertTrue(cells > 0);
            raf.seek(at + 12);
            int firstCell = raf.readUnsignedShort();
            raf.seek(at + firstCell);
            raf.writeInt(1_000_000);
        }
        try (Connection c = ReadOnlySqlite.open(f);
             RowCursor rows = TableFileScan.open(c, "SELECT a, b FROM t", ReadDeadline.NONE)) {
            SQLException e = assertThrows(SQLException.class, () -> {
                while (rows.next()) rows.getUtf8(1);
            });
            assertTrue(e.getMessage().contains("malformed") && e.getMessage().contains("damaged.sqlite"), e.getMessage());
        }
    }

    @Test
    void theBundledExportReadsAsSqliteReadsItTableByTable() throws SQLException {
        assertWholeFileSameAsSqlite(Corpus.repoRoot().resolve("examples/resnet-like-fp32.sqlite"));
    }

    @Test
    void realExportsOfSeveralNsysVersionsReadAsSqliteReadsThem() throws SQLException {
        for (String p : List.of("cutlass-bench-nsys2023/report1.sqlite", "uvmtorch-nsys2025/report1.sqlite",
                "mohanadodema-dlprof/w_Relu/nsys_profile.sqlite", "llama3-inference-nsys2024/real_inference_simulation.sqlite")) {
            assertWholeFileSameAsSqlite(Corpus.file(p));
        }
    }

    /** Every column of every ordinary table the file holds; at least one table is read from the file. */
    private static void assertWholeFileSameAsSqlite(Path file) throws SQLException {
        try (Connection c = ReadOnlySqlite.open(file)) {
            List<String> tables = new ArrayList<>();
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
                while (rs.next()) tables.add(rs.getString(1));
            }
            int read = 0;
            for (String t : tables) {
                List<String> cols = new ArrayList<>();
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA table_info(\"" + t + "\")")) {
                    while (rs.next()) cols.add(rs.getString("name"));
                }
                if (cols.isEmpty() || cols.stream().anyMatch(n -> !n.matches("[A-Za-z_][A-Za-z0-9_]*"))) continue;
                String select = "SELECT " + String.join(", ", Stream.concat(cols.stream(), Stream.of("rowid")).toList())
                        + " FROM " + t;
                try (RowCursor probe = TableFileScan.open(c, select, ReadDeadline.NONE)) {
                    if (probe == null) continue;
                }
                assertSameAsSqlite(c, select);
                read++;
            }
            assertTrue(read >= 5, file + ": " + read + " tables read from the file of " + Arrays.toString(tables.toArray()));
        }
    }

    @Test
    void theLargestTimeOfATableIsSqlitesMaxOrLeftToSqlite() throws SQLException {
        try (Connection c = write("ends.sqlite", 1024,
                "CREATE TABLE k (start INTEGER NOT NULL, end INTEGER)",
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000) "
                        + "INSERT INTO k SELECT i * 1000, CASE WHEN i % 10 = 0 THEN NULL ELSE i * 1000 + 500 END FROM n",
                "INSERT INTO k VALUES (40000000, NULL)", // an unclosed range starting after every end
                "CREATE TABLE empty (start INTEGER, end INTEGER)",
                "CREATE TABLE nulls (start INTEGER, end INTEGER)",
                "INSERT INTO nulls VALUES (NULL, NULL)",
                "CREATE TABLE mixed (start INTEGER, end INTEGER)",
                "INSERT INTO mixed VALUES (5, 7.5), (6, 'late')")) {
            long max;
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT MAX(MAX(COALESCE(end, start)), MAX(start)) FROM k")) {
                rs.next();
                max = rs.getLong(1);
            }
            assertEquals(40_000_000L, max);
            assertEquals(max, TableFileScan.maxInteger(c, "k", List.of("start", "end"), ReadDeadline.NONE, -1));
            assertEquals(29_999_500L, TableFileScan.maxInteger(c, "k", List.of("end"), ReadDeadline.NONE, -1));
            assertEquals(-1L, TableFileScan.maxInteger(c, "empty", List.of("start", "end"), ReadDeadline.NONE, -1));
            assertEquals(-1L, TableFileScan.maxInteger(c, "nulls", List.of("start", "end"), ReadDeadline.NONE, -1));
            // a REAL or a text orders its own way in SQLite's MAX: SQLite answers
            assertNull(TableFileScan.maxInteger(c, "mixed", List.of("start", "end"), ReadDeadline.NONE, -1));
        }
    }

    @Test
    void integerTextConversionsFollowSqlite() {
        assertEquals(12, SqliteValues.atoi64("12ms".getBytes(), 0, 4));
        assertEquals(-42, SqliteValues.atoi64("  -42 apples".getBytes(), 0, 12));
        assertEquals(0, SqliteValues.atoi64("x1".getBytes(), 0, 2));
        assertEquals(Long.MAX_VALUE, SqliteValues.atoi64("99999999999999999999".getBytes(), 0, 20));
        assertEquals(Long.MIN_VALUE, SqliteValues.atoi64("-9223372036854775808".getBytes(), 0, 20));
        assertEquals(Long.MIN_VALUE, SqliteValues.atoi64("-9223372036854775809".getBytes(), 0, 20));
        assertEquals(Long.MAX_VALUE, SqliteValues.atoi64("9223372036854775808".getBytes(), 0, 19));
        assertEquals(7, SqliteValues.atoi64("0007".getBytes(), 0, 4));
        assertTrue(Files.exists(Corpus.repoRoot().resolve("examples/resnet-like-fp32.sqlite")));
    }
}
