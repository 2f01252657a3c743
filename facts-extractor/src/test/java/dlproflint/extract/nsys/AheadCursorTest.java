package dlproflint.extract.nsys;

import dlproflint.extract.common.RowCursor;
import dlproflint.synth.Workload;
import dlproflint.synth.WorkloadSpec;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The evidence pass's NVTX rows read ahead on the second connection ({@link AheadCursor}) are the rows read here, in
 * the same order, NULLs and texts alike; a table out of order ends the read with {@link OrderedScan.OutOfOrder} (and
 * the table is then known unsorted to both connections); a caller that stops early does not leave the reader waiting.
 */
class AheadCursorTest {
    private static final String SELECT = "SELECT ((globalTid >> 24) & 16777215), start, end, globalTid, text, textId, "
            + "eventType FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60)";

    @TempDir
    Path dir;

    private Path export(boolean endOrdered, int steps) throws Exception {
        Path f = dir.resolve((endOrdered ? "end" : "start") + steps + ".sqlite");
        Workload.generate(WorkloadSpec.emitNvtx(steps).toBuilder().endOrderedNvtx(endOrdered).build(), f);
        return f;
    }

    private static OrderedScan scan(NsysDatabase db) {
        return db.scan("NVTX_EVENTS", "eventType IN (34, 59, 60)", "((globalTid >> 24) & 16777215)", "start", "end DESC");
    }

    /** The rows of a cursor over {@link #SELECT}, checked against the storage order as the evidence pass checks them. */
    private static List<String> rows(RowCursor rs, OrderedScan scan) throws Exception {
        List<String> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                scan.check(rs.getLong(0), rs.getLong(1), rs.getLong(2));
                out.add(rs.getLong(0) + " " + rs.getLong(3) + " " + rs.getLong(1) + " " + rs.getLong(2) + " " + rs.isNull(2)
                        + " " + rs.getInt(6) + " " + rs.getString(4) + " " + rs.isNull(4) + " " + rs.getLong(5) + " "
                        + rs.isNull(5));
            }
        }
        return out;
    }

    private static List<String> ahead(Beside beside) throws Exception {
        OrderedScan scan = scan(beside.db());
        return rows(new AheadCursor(beside, scan, SELECT, 7, 4), scan);
    }

    /** Rows read here, once more (sorted by SQLite) if the first read found the table out of order. */
    private static List<String> here(NsysDatabase db) throws Exception {
        try {
            OrderedScan scan = scan(db);
            return rows(scan.open(SELECT), scan);
        } catch (OrderedScan.OutOfOrder e) {
            OrderedScan scan = scan(db);
            return rows(scan.open(SELECT), scan);
        }
    }

    @Test
    void readAheadGivesTheRowsReadHere() throws Exception {
        // the bundled example is stored in (process, start) order: read in storage order, checked as it goes
        Path example = Corpus.repoRoot().resolve("examples/resnet-like-fp32.sqlite");
        // an emit_nvtx-style export's backward thread interleaves with the forward one: sorted by SQLite
        for (Path f : List.of(example, export(false, 40))) {
            try (NsysDatabase db = NsysDatabase.open(f)) {
                List<String> here = here(db);
                assertEquals(f == example, !db.knownUnsorted("NVTX_EVENTS"), f + " read in storage order");
                assertTrue(here.size() > (f == example ? 100 : 3 * AheadCursor.BATCH), "rows: " + here.size());
                try (NsysDatabase side = db.sibling(); Beside beside = new Beside(side)) {
                    assertEquals(here, ahead(beside));
                }
            }
        }
    }

    @Test
    void aTableOutOfOrderEndsTheReadWhereTheRowsAreTaken() throws Exception {
        Path f = export(true, 40);
        try (NsysDatabase db = NsysDatabase.open(f); NsysDatabase side = db.sibling(); Beside beside = new Beside(side)) {
            assertThrows(OrderedScan.OutOfOrder.class, () -> ahead(beside));
            assertTrue(db.knownUnsorted("NVTX_EVENTS"), "the reader's connection knows it too");
            // the next read is sorted by SQLite: the same rows as read here, sorted
            assertEquals(here(db), ahead(beside));
        }
    }

    @Test
    void aFailedQueryIsThrownWhereTheRowsAreTaken() throws Exception {
        try (NsysDatabase db = NsysDatabase.open(Corpus.repoRoot().resolve("examples/resnet-like-fp32.sqlite"));
             NsysDatabase side = db.sibling(); Beside beside = new Beside(side)) {
            AheadCursor rs = new AheadCursor(beside, scan(side), "SELECT no_such_column FROM NVTX_EVENTS", 1);
            java.sql.SQLException e = assertThrows(java.sql.SQLException.class, rs::next);
            assertTrue(e.getMessage().contains("no_such_column"), e.getMessage());
            rs.close();
            assertEquals(42, beside.join(beside.run(() -> 42)), "the thread beside is free again");
        }
    }

    @Test
    void aCallerThatStopsEarlyDoesNotLeaveTheReaderWaiting() throws Exception {
        Path f = export(false, 200);
        try (NsysDatabase db = NsysDatabase.open(f); NsysDatabase side = db.sibling(); Beside beside = new Beside(side)) {
            here(db); // sorted from now on: the read ahead runs until its queue is full
            assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () -> {
                try (AheadCursor r = new AheadCursor(beside, scan(side), SELECT, 7, 4)) {
                    assertTrue(r.next());
                    TimeUnit.MILLISECONDS.sleep(300);
                }
                // the reader has ended: the thread beside takes the next pass at once
                assertEquals(42, beside.join(beside.run(() -> 42)));
            });
        }
    }
    /**
     * A text column read as bytes is the text's UTF-8 (null for NULL, empty for an empty text), read here or ahead,
     * from a database that stores text in UTF-8 (every nsys export) or in UTF-16 (whose values' bytes are not UTF-8).
     */
    @Test
    void textsReadAsBytesAreTheirUtf8WhateverTheDatabasesEncoding() throws Exception {
        List<String> values = java.util.Arrays.asList(null, "", "aten::mm, seq = 3", "\u00e9\u4e2d\ud83d\ude00 x");
        for (String encoding : List.of("UTF-8", "UTF-16le")) {
            Path f = dir.resolve(encoding + ".sqlite");
            try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + f);
                 java.sql.Statement st = c.createStatement()) {
                st.execute("PRAGMA encoding = '" + encoding + "'");
                st.execute("CREATE TABLE t (x TEXT)");
                try (java.sql.PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?)")) {
                    for (String v : values) {
                        ps.setString(1, v);
                        ps.executeUpdate();
                    }
                }
            }
            try (NsysDatabase db = NsysDatabase.open(f); NsysDatabase side = db.sibling(); Beside beside = new Beside(side)) {
                List<RowCursor> cursors = List.of(RowCursor.open(db.connection(), "SELECT x FROM t ORDER BY rowid"),
                        new AheadCursor(beside, side.scan("t", null, "rowid"), "SELECT x FROM t", 1, 0));
                for (RowCursor rs : cursors) {
                    try (rs) {
                        for (String v : values) {
                            assertTrue(rs.next());
                            byte[] got = rs.getUtf8(0);
                            assertEquals(v == null ? null : java.util.HexFormat.of().formatHex(
                                    v.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                                    got == null ? null : java.util.HexFormat.of().formatHex(got), encoding + " " + rs);
                        }
                        assertTrue(!rs.next());
                    }
                }
            }
        }
    }
}
