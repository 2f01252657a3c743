package dlproflint.extract.nsys;

import dlproflint.extract.ReadOptions;
import dlproflint.facts.ProfileFacts;
import dlproflint.synth.Workload;
import dlproflint.synth.WorkloadSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 25: nsys stores push/pop ranges when they end, so an enclosing range (a step, an op around its callees)
 * comes after what it holds. The reader's facts do not depend on the storage order: the same emit_nvtx-style loop
 * written with ranges in start order and in end order reads to the same ops, kernels, steps, synchronisation
 * facts (with the range each call was made in) and breakdown.
 */
class StorageOrderTest {
    @TempDir
    Path dir;

    @Test
    void endOrderedRangesReadAsStartOrderedOnes() throws Exception {
        WorkloadSpec spec = WorkloadSpec.emitNvtx(12).toBuilder().opsPerIteration(24).build();
        Path endOrdered = dir.resolve("end.sqlite");
        Path startOrdered = dir.resolve("start.sqlite");
        Workload.generate(spec, endOrdered);
        Workload.generate(spec.toBuilder().endOrderedNvtx(false).build(), startOrdered);
        // the file really is stored as nsys stores it: a step's range after the op ranges it holds
        assertTrue(rowidOf(endOrdered, "ProfilerStep#1") > rowidOf(endOrdered, "aten::conv2d, seq = 1"));
        assertTrue(rowidOf(startOrdered, "ProfilerStep#1") < rowidOf(startOrdered, "aten::conv2d, seq = 1"));

        ProfileFacts a = new NsysSqliteReader().read(startOrdered, ReadOptions.DEFAULT);
        ProfileFacts b = new NsysSqliteReader().read(endOrdered, ReadOptions.DEFAULT);
        assertEquals(12, a.iterations().size(), "ProfilerStep#N steps");
        assertTrue(a.ops().size() > 10, "ops " + a.ops().size());
        assertEquals(a.ops(), b.ops());
        assertEquals(a.kernels(), b.kernels());
        assertEquals(a.iterations(), b.iterations());
        assertEquals(a.iterationSummary(), b.iterationSummary());
        assertEquals(a.markers(), b.markers());
        assertEquals(a.breakdown(), b.breakdown());
        assertEquals(a.syncApiStats(), b.syncApiStats());
        assertEquals(1, a.syncApiStats().size(), "one cudaStreamSynchronize per step");
        assertTrue(a.syncApiStats().get(0).ranges().get(0).startsWith("ProfilerStep#"),
                "each sync is called in its step's range: " + a.syncApiStats().get(0).ranges());
        assertEquals(a.dataLoader(), b.dataLoader());
        assertEquals(a.gpuGaps(), b.gpuGaps());
        assertEquals(a.hostSyncs(), b.hostSyncs());
    }

    /**
     * A real export (llama3 inference, nsys 2024: 1,601 NVTX ranges on one thread, layers nested in passes) with its
     * NVTX table stored as nsys stores push/pop ranges, each when it ends (put in order by the evidence pass's spool,
     * no sort by SQLite), and stored newest first (too far from order for the spool: sorted by SQLite): the same facts
     * as the export as it was written.
     */
    @Test
    void aRealExportReadsTheSameWhateverOrderItsRangesAreStoredIn() throws Exception {
        Path original = dlproflint.testing.Corpus.file("llama3-inference-nsys2024/real_inference_simulation.sqlite");
        ProfileFacts a = new NsysSqliteReader().read(original, ReadOptions.DEFAULT);
        assertTrue(a.iterations().size() > 1 && a.ops().size() > 10, "steps and ops: " + a.iterations().size());
        for (String order : List.of("end, start DESC", "rowid DESC")) {
            Path copy = dir.resolve("llama3-" + order.replaceAll("\\W", "") + ".sqlite");
            java.nio.file.Files.copy(original, copy);
            copy.toFile().setWritable(true);
            restore(copy, "NVTX_EVENTS", order);
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement st = c.createStatement()) {
                // the copy is out of order: a range stored after one that starts later
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM NVTX_EVENTS a JOIN NVTX_EVENTS b "
                        + "ON b.rowid = a.rowid + 1 WHERE b.start < a.start")) {
                    assertTrue(rs.next() && rs.getLong(1) > 0, order);
                }
            }
            ProfileFacts b = new NsysSqliteReader().read(copy, ReadOptions.DEFAULT);
            assertEquals(a.ops(), b.ops(), order);
            assertEquals(a.kernels(), b.kernels(), order);
            assertEquals(a.iterations(), b.iterations(), order);
            assertEquals(a.iterationSummary(), b.iterationSummary(), order);
            assertEquals(a.markers(), b.markers(), order);
            assertEquals(a.breakdown(), b.breakdown(), order);
            assertEquals(a.syncApiStats(), b.syncApiStats(), order);
            assertEquals(a.dataLoader(), b.dataLoader(), order);
            assertEquals(a.gpuGaps(), b.gpuGaps(), order);
            assertEquals(a.hostSyncs(), b.hostSyncs(), order);
            assertEquals(a.warnings(), b.warnings(), order);
        }
    }

    /**
     * The GPU sweep reads the kernel rows the correlation pass kept ({@link KernelTape}) where that pass read the
     * table in storage order; a kernel table stored newest first is read sorted by SQLite by both passes instead. The
     * same facts either way: steps, gaps, busy bins, the host syncs' GPU idle, the breakdown.
     */
    @Test
    void kernelsStoredOutOfOrderReadAsTheKeptOnes() throws Exception {
        ProfileFacts[] ab = keptAndNewestFirst("CUPTI_ACTIVITY_KIND_KERNEL");
        ProfileFacts a = ab[0];
        ProfileFacts b = ab[1];
        assertTrue(a.kernels().size() > 10 && !a.gpuTimelines().isEmpty() && a.hostSyncs() != null,
                "kernels, busy timelines, host syncs");
        assertEquals(a.kernels(), b.kernels());
        assertEquals(a.iterations(), b.iterations());
        assertEquals(a.breakdown(), b.breakdown());
        assertEquals(a.gpuGaps(), b.gpuGaps());
        assertEquals(timelines(a), timelines(b));
        assertEquals(a.gpuUsage(), b.gpuUsage());
        assertEquals(a.hostSyncs(), b.hostSyncs());
        assertEquals(a.syncApiStats(), b.syncApiStats());
    }

    /**
     * The host's time per step is measured from the CUDA API calls' times the correlation pass kept
     * ({@link Tapes#callTimes}) where that pass read the runtime table in storage order; a runtime table stored newest
     * first is read sorted by SQLite by both passes instead. The same facts either way: the host's share of each step,
     * the breakdown, the calls' statistics.
     */
    @Test
    void callsStoredOutOfOrderGiveTheHostTimeOfTheKeptOnes() throws Exception {
        ProfileFacts[] ab = keptAndNewestFirst("CUPTI_ACTIVITY_KIND_RUNTIME");
        ProfileFacts a = ab[0];
        ProfileFacts b = ab[1];
        assertTrue(!a.apiStats().isEmpty() && a.breakdown() != null, "calls and a breakdown");
        assertTrue(a.breakdown().cpuPct() > 0, "the host's CPU time counts in the breakdown: " + a.breakdown());
        assertEquals(a.iterations(), b.iterations());
        assertEquals(a.breakdown(), b.breakdown());
        assertEquals(timelines(a), timelines(b));
        assertEquals(a.apiStats(), b.apiStats());
        assertEquals(a.syncApiStats(), b.syncApiStats());
        assertEquals(a.hostSyncs(), b.hostSyncs());
    }

    /**
     * Exports whose GPU tables name no process (no {@code globalPid}) are merged as one process; with a table stored
     * out of the order a pass needs, SQLite sorts it, and a constant process key must not reach the ORDER BY (SQLite
     * reads an integer there as a column number: "1st ORDER BY term out of range"). Same facts as the export as
     * written, whose one process the streams key by its id.
     */
    @Test
    void withoutProcessColumnsAndOutOfOrderTablesTheFactsAreTheSame() throws Exception {
        WorkloadSpec spec = WorkloadSpec.emitNvtx(12).toBuilder().opsPerIteration(24).build();
        Path plain = dir.resolve("plain.sqlite");
        Path noPid = dir.resolve("nopid.sqlite");
        Workload.generate(spec, plain);
        Workload.generate(spec, noPid);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + noPid); Statement st = c.createStatement()) {
            for (String t : NsysDatabase.GPU_TABLES) {
                if (!hasColumn(st, t, "globalPid")) continue;
                st.execute("CREATE TABLE t2 AS SELECT * FROM " + t);
                st.execute("ALTER TABLE t2 DROP COLUMN globalPid");
                st.execute("DROP TABLE " + t);
                st.execute("ALTER TABLE t2 RENAME TO " + t);
            }
        }
        // API calls stored newest first: the correlation pass's stream must let SQLite sort them
        restore(noPid, "CUPTI_ACTIVITY_KIND_RUNTIME", "rowid DESC");
        ProfileFacts a = new NsysSqliteReader().read(plain, ReadOptions.DEFAULT);
        ProfileFacts b = new NsysSqliteReader().read(noPid, ReadOptions.DEFAULT);
        assertTrue(a.ops().size() > 10, "ops " + a.ops().size());
        assertEquals(a.ops(), b.ops());
        assertEquals(a.kernels(), b.kernels());
        assertEquals(a.iterations(), b.iterations());
        assertEquals(a.breakdown(), b.breakdown());
        assertEquals(a.dataLoader(), b.dataLoader());
    }

    /**
     * The facts of an emit_nvtx workload as written (its tables in time order: the tapes serve) and of the same
     * workload with {@code table} stored newest first (read sorted by SQLite).
     */
    private ProfileFacts[] keptAndNewestFirst(String table) throws Exception {
        WorkloadSpec spec = WorkloadSpec.emitNvtx(12).toBuilder().opsPerIteration(24).build();
        Path kept = dir.resolve(table + "-kept.sqlite");
        Path reversed = dir.resolve(table + "-reversed.sqlite");
        Workload.generate(spec, kept);
        Workload.generate(spec, reversed);
        restore(reversed, table, "rowid DESC");
        return new ProfileFacts[] {new NsysSqliteReader().read(kept, ReadOptions.DEFAULT),
                new NsysSqliteReader().read(reversed, ReadOptions.DEFAULT)};
    }

    /** The GPU busy timelines, their bins spelt out (a record's array compares by identity). */
    private static List<String> timelines(ProfileFacts f) {
        return f.gpuTimelines().stream().map(t -> t.deviceId() + "/" + t.pid() + "/" + t.startNs() + "/" + t.endNs() + "/"
                + java.util.Arrays.toString(t.busyNs())).toList();
    }

    /** Stores {@code table} of {@code file} again, its rows in {@code order} (an ORDER BY clause). */
    private static void restore(Path file, String table, String order) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE reordered AS SELECT * FROM " + table + " ORDER BY " + order);
            st.execute("DROP TABLE " + table);
            st.execute("ALTER TABLE reordered RENAME TO " + table);
        }
    }

    private static boolean hasColumn(Statement st, String table, String column) throws Exception {
        try (ResultSet rs = st.executeQuery("PRAGMA table_info(" + table + ")")) {
            while (rs.next()) if (column.equals(rs.getString("name"))) return true;
        }
        return false;
    }

    private static long rowidOf(Path file, String text) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT rowid FROM NVTX_EVENTS WHERE text = '" + text + "'")) {
            assertTrue(rs.next(), text);
            return rs.getLong(1);
        }
    }
}
