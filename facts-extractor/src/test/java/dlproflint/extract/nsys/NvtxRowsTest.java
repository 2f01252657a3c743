package dlproflint.extract.nsys;

import dlproflint.synth.Workload;
import dlproflint.synth.WorkloadSpec;
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
 * The evidence pass's rows read ahead on the second connection are the rows read here, in the same order; a table
 * out of order ends the read ahead with {@link OrderedScan.OutOfOrder} where the rows are taken (and the table is
 * then known unsorted to both connections); a caller that stops early does not leave the reader waiting.
 */
class NvtxRowsTest {
    @TempDir
    Path dir;

    private Path export(boolean endOrdered, int steps) throws Exception {
        Path f = dir.resolve((endOrdered ? "end" : "start") + steps + ".sqlite");
        Workload.generate(WorkloadSpec.emitNvtx(steps).toBuilder().endOrderedNvtx(endOrdered).build(), f);
        return f;
    }

    private static List<String> rows(NvtxRows rows) throws Exception {
        List<String> out = new ArrayList<>();
        NvtxRows.Batch b;
        do {
            b = rows.next();
            for (int i = 0; i < b.size; i++) {
                out.add(b.pid[i] + " " + b.tid[i] + " " + b.start[i] + " " + b.end[i] + " " + b.noEnd[i] + " " + b.type[i]
                        + " " + b.registered[i] + " " + b.textId[i] + " " + b.text[i]);
            }
        } while (!b.last);
        return out;
    }

    /** Rows read here, once more sorted by SQLite if the first read found the table out of order. */
    private static List<String> here(NsysDatabase db) throws Exception {
        try (NvtxRows r = NvtxRows.open(db, null)) {
            return rows(r);
        } catch (OrderedScan.OutOfOrder e) {
            try (NvtxRows r = NvtxRows.open(db, null)) {
                return rows(r);
            }
        }
    }

    @Test
    void readAheadGivesTheRowsReadHere() throws Exception {
        // the bundled example is stored in (process, start) order: read in storage order, checked as it goes
        Path example = dlproflint.testing.Corpus.repoRoot().resolve("examples/resnet-like-fp32.sqlite");
        // an emit_nvtx-style export's backward thread interleaves with the forward one: sorted by SQLite
        for (Path f : List.of(example, export(false, 40))) {
            try (NsysDatabase db = NsysDatabase.open(f)) {
                List<String> here = here(db);
                assertEquals(f == example, !db.knownUnsorted("NVTX_EVENTS"), f + " read in storage order");
                assertTrue(here.size() > (f == example ? 100 : 3 * NvtxRows.BATCH), "rows: " + here.size());
                try (NsysDatabase side = db.sibling(); Beside beside = new Beside(side);
                     NvtxRows r = NvtxRows.open(db, beside)) {
                    assertEquals(here, rows(r));
                }
            }
        }
    }

    @Test
    void aTableOutOfOrderEndsTheReadAheadWhereTheRowsAreTaken() throws Exception {
        Path f = export(true, 40);
        try (NsysDatabase db = NsysDatabase.open(f); NsysDatabase side = db.sibling(); Beside beside = new Beside(side)) {
            try (NvtxRows r = NvtxRows.open(db, beside)) {
                assertThrows(OrderedScan.OutOfOrder.class, () -> rows(r));
            }
            assertTrue(db.knownUnsorted("NVTX_EVENTS"), "the reader's connection knows it too");
            // the second read is sorted by SQLite: the same rows as read here, sorted
            List<String> sorted;
            try (NvtxRows r = NvtxRows.open(db, beside)) {
                sorted = rows(r);
            }
            try (NvtxRows r = NvtxRows.open(db, null)) {
                assertEquals(rows(r), sorted);
            }
        }
    }

    @Test
    void aCallerThatStopsEarlyDoesNotLeaveTheReaderWaiting() throws Exception {
        Path f = export(false, 200);
        try (NsysDatabase db = NsysDatabase.open(f); NsysDatabase side = db.sibling(); Beside beside = new Beside(side)) {
            here(db); // sorted from now on: the read ahead runs to its full queue
            assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () -> {
                try (NvtxRows r = NvtxRows.open(db, beside)) {
                    assertEquals(NvtxRows.BATCH, r.next().size); // the reader fills its queue and waits for room
                    TimeUnit.MILLISECONDS.sleep(300);
                }
                // the reader has ended: the thread beside takes the next pass at once
                assertEquals(42, beside.join(beside.run(() -> 42)));
            });
        }
    }
}
