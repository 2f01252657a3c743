package dlproflint.synth;

import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.KernelFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmark's scaled real export (issue 25): the template's events three times over, each copy later in time
 * and with its own correlation ids, read as three times the template's steps with the same kernels.
 */
class NsysExportScalerTest {
    @TempDir
    Path dir;

    @Test
    void threeCopiesReadAsThreeTimesTheSteps() throws Exception {
        Path template = Corpus.repoRoot().resolve(ExampleProfileTest.EXAMPLE);
        Path scaled = dir.resolve("scaled.sqlite");
        long kernels = count(template, "CUPTI_ACTIVITY_KIND_KERNEL");
        assertEquals(3, NsysExportScaler.scale(template, scaled, 2 * kernels + 1), "copies to reach the kernels asked for");
        for (String t : new String[] {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS"}) {
            assertEquals(3 * count(template, t), count(scaled, t), t);
        }
        assertEquals(count(scaled, "CUPTI_ACTIVITY_KIND_KERNEL"),
                scalar(scaled, "SELECT COUNT(DISTINCT correlationId) FROM CUPTI_ACTIVITY_KIND_KERNEL"),
                "every copy's kernels have correlation ids of their own");
        assertFalse(Files.exists(dir.resolve("scaled.sqlite.part")), "written atomically");

        ReadOptions key = new ReadOptions("aten::to", null, null);
        ProfileReaders readers = ProfileReaders.discover();
        ProfileFacts one = readers.read(template, key);
        ProfileFacts three = readers.read(scaled, key);
        // 10 key-node instances split 11 intervals in the template; 30 split 31 in three copies
        assertEquals(11, one.iterations().size());
        assertEquals(31, three.iterations().size());
        assertEquals(names(one), names(three), "the same kernels");
        assertTrue(three.warnings().stream().noneMatch(w -> w.code().equals("gpu-without-api")
                        || w.code().equals("duplicate-correlation") || w.code().equals("gpu-work-unlinked")),
                "each copy's GPU work meets its own launch calls: " + three.warnings());
    }

    private static Set<String> names(ProfileFacts f) {
        return f.kernels().stream().map(KernelFact::name).collect(Collectors.toCollection(TreeSet::new));
    }

    private static long count(Path db, String table) throws Exception {
        return scalar(db, "SELECT COUNT(*) FROM " + table);
    }

    private static long scalar(Path db, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }
}
