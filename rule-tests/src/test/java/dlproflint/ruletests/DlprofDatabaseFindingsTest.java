package dlproflint.ruletests;

import dlproflint.findings.Finding;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dlprof pack on the TensorFlow 1 DLProf database of dlprof-kakack-dlprofer (8 A100s, no kernel-level rows):
 * every detector DLProf fired there has its finding, with the numbers DLProf printed (read from the database).
 */
class DlprofDatabaseFindingsTest {
    private static final String DB = "dlprof-kakack-dlprofer/dlprofviewer/dlproftool/dlprof_dldb.sqlite";

    @Test
    void everyDlprofDetectorHasItsFinding() throws Exception {
        Path db = Corpus.file(DB);
        Set<String> detectors = new TreeSet<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db + "?mode=ro&immutable=1");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT exp_sys_id FROM expert_systems_feedback")) {
            while (rs.next()) detectors.add(rs.getString(1));
        }
        List<Finding> findings = AllPacks.engine().lint(ProfileReaders.discover().read(db, ReadOptions.DEFAULT));
        Set<String> ours = findings.stream().map(Finding::ruleId).collect(Collectors.toCollection(TreeSet::new));
        Set<String> expected = detectors.stream().map(DlprofDetectorParityTest.DETECTORS::get).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(expected, ours, "one rule per DLProf detector; findings: "
                + findings.stream().map(f -> f.ruleId() + ": " + f.problem()).toList());
        // DLProf: "1 op was eligible ...", "key op global_step not found", "Only 2% of GPU Memory is used",
        // "The following GPU device IDs are not being used: 0 1 2 3 4 5 6 7" (GPU 1 ran 3 copies: we count it as used)
        assertTrue(has(findings, "dlprof/amp-not-used", "1 op was eligible"));
        assertTrue(has(findings, "dlprof/no-iterations", "global_step"));
        assertTrue(has(findings, "dlprof/small-batch-size", "only 2.1%"));
        assertTrue(has(findings, "dlprof/underutilized-gpu", "device ids 0 2 3 4 5 6 7"));
        assertTrue(has(findings, "dlprof/xla-not-enabled", "XLA is not enabled"));
    }

    private static boolean has(List<Finding> findings, String rule, String text) {
        return findings.stream().anyMatch(f -> f.ruleId().equals(rule) && f.problem().contains(text));
    }
}
