package dlproflint.extract.nsys;

import dlproflint.extract.ReadOptions;
import dlproflint.facts.Iteration;
import dlproflint.facts.ProfileFacts;
import dlproflint.synth.Workload;
import dlproflint.synth.WorkloadSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The profile's end is the last time any CPU or GPU table records, as SQL's {@code MAX} over every table gives it. The
 * reader finds it in the correlation pass's own read of the large tables, and decides the iterations before it knows
 * it ({@link ProfileEnd}): the end must come out the same wherever the last time is stored, whatever its storage
 * class, and the last iteration must last until it.
 */
class ProfileEndTest {
    private static final List<String> TABLES = List.of("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
            "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS");
    private static final String ALL_ENDS = "(SELECT MAX(x) FROM (SELECT MAX(end) x FROM CUPTI_ACTIVITY_KIND_KERNEL"
            + " UNION ALL SELECT MAX(end) FROM CUPTI_ACTIVITY_KIND_RUNTIME UNION ALL SELECT MAX(start) FROM NVTX_EVENTS))";

    @TempDir
    Path dir;

    @Test
    void theEndIsTheLastTimeOfAnyTableWhereverAndHoweverItIsStored() throws Exception {
        Path base = dir.resolve("base.sqlite");
        Workload.generate(WorkloadSpec.emitNvtx(4).toBuilder().opsPerIteration(8).build(), base);
        // the late row is the table's first stored: its end is not found by looking at the table's last rows
        Map<String, String> variants = new LinkedHashMap<>();
        variants.put("as generated", "");
        variants.put("a kernel ends last", late("CUPTI_ACTIVITY_KIND_KERNEL", "end", ALL_ENDS + " + 5000000"));
        variants.put("a call ends last", late("CUPTI_ACTIVITY_KIND_RUNTIME", "end", ALL_ENDS + " + 6000000"));
        variants.put("a mark is last", "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) VALUES ("
                + ALL_ENDS + " + 7000000, NULL, 34, 'late mark', " + SyntheticNsys.TID + ")");
        // a row of a type no pass uses (a category's name): it counts towards the end all the same
        variants.put("an NVTX row of another type is last", "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid)"
                + " VALUES (" + ALL_ENDS + " + 9000000, NULL, 33, 'a category', " + SyntheticNsys.TID + ")");
        variants.put("a kernel's end stored as a real", late("CUPTI_ACTIVITY_KIND_KERNEL", "end",
                ALL_ENDS + " + 3000000.5")); // a whole number would be stored as an integer
        // SQL's MAX orders a text above every number: the table's end is then the text's number, as before (a text that
        // is not a well-formed number: another would be stored as an integer)
        variants.put("a text among the calls' ends", late("CUPTI_ACTIVITY_KIND_RUNTIME", "end", ALL_ENDS + " + 6000000")
                + "; UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET end = '1x' WHERE rowid = (SELECT MAX(rowid) FROM"
                + " CUPTI_ACTIVITY_KIND_RUNTIME)");
        variants.put("a range never closed", "UPDATE NVTX_EVENTS SET end = NULL WHERE rowid = (SELECT MIN(rowid) FROM"
                + " NVTX_EVENTS WHERE eventType = 59); " + late("CUPTI_ACTIVITY_KIND_KERNEL", "end", ALL_ENDS + " + 2000000"));
        for (Map.Entry<String, String> v : variants.entrySet()) {
            Path file = variant(base, v.getKey(), v.getValue());
            long want = sqlEnd(file);
            ProfileFacts facts = new NsysSqliteReader().read(file, ReadOptions.DEFAULT);
            assertEquals(want, facts.profile().endNs(), v.getKey());
        }
    }

    @Test
    void withoutStepsTheOneIterationLastsUntilTheEnd() throws Exception {
        Path base = dir.resolve("base.sqlite");
        Workload.generate(WorkloadSpec.emitNvtx(4).toBuilder().opsPerIteration(8).build(), base);
        // no ranges at all: the profile is one iteration, from 0 to the end
        for (String table : List.of("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME")) {
            Path file = variant(base, table, "DELETE FROM NVTX_EVENTS; "
                    + late(table, "end", "(SELECT MAX(x) FROM (SELECT MAX(end) x FROM CUPTI_ACTIVITY_KIND_KERNEL"
                    + " UNION ALL SELECT MAX(end) FROM CUPTI_ACTIVITY_KIND_RUNTIME)) + 8000000"));
            long want = sqlEnd(file);
            ProfileFacts facts = new NsysSqliteReader().read(file, ReadOptions.DEFAULT);
            assertEquals(want, facts.profile().endNs(), table);
            List<Iteration> its = facts.iterations();
            assertEquals(1, its.size(), table);
            assertEquals(want, its.get(its.size() - 1).endNs(), table + ": the last iteration ends at the profile's end");
        }
    }

    /** Sets {@code column} of the table's first stored row to {@code value}. */
    private static String late(String table, String column, String value) {
        return "UPDATE " + table + " SET " + column + " = " + value + " WHERE rowid = (SELECT MIN(rowid) FROM " + table + ")";
    }

    private Path variant(Path base, String name, String sql) throws Exception {
        Path file = dir.resolve(name.replaceAll("\\W+", "-") + ".sqlite");
        Files.copy(base, file);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            for (String s : sql.split("; ")) if (!s.isBlank()) st.executeUpdate(s);
        }
        return file;
    }

    /** What SQL's MAX gives over every table (a table's value as SQLite converts it to an integer), 0 at least. */
    private static long sqlEnd(Path file) throws Exception {
        long end = 0;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            for (String t : TABLES) {
                try (ResultSet has = st.executeQuery("SELECT COUNT(*) FROM sqlite_master WHERE name = '" + t + "'")) {
                    if (has.getLong(1) == 0) continue;
                }
                try (ResultSet rs = st.executeQuery("SELECT MAX(MAX(COALESCE(end, start)), MAX(start)) FROM " + t)) {
                    if (rs.next()) end = Math.max(end, rs.getLong(1));
                }
            }
        }
        assertTrue(end > 0);
        return end;
    }
}
