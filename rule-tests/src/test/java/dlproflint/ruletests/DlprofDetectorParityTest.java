package dlproflint.ruletests;

import dlproflint.engine.EngineOptions;
import dlproflint.engine.LintEngine;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ProfileFacts;
import dlproflint.findings.Finding;
import dlproflint.testing.Corpus;
import dlproflint.testing.SqliteVariant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * For every DLProf database in the corpus, and for variants made from each (kernel rows deleted as in a live
 * capture or TensorFlow 1 mode, only DLProf's aggregates left, an older/partial schema, another mode), the
 * detectors DLProf fired ({@code expert_systems_feedback}, read here, never by the reader) against the
 * {@code dlprof} pack's findings: ours contain DLProf's, minus {@code No DALI ops detected} (not a problem,
 * see {@code dataloader-bound.md}), and there is no extra one without a reason documented here and in
 * {@code docs/dlprof-parity.md}. The {@code nsys} pack (nsys analyze's checks, which DLProf never had) is
 * not part of the comparison.
 */
class DlprofDetectorParityTest {
    /** DLProf detector id → our rule (DLProf 1.8 ids as its databases record them; docs/dlprof-parity.md). */
    static final Map<String, String> DETECTORS = Map.of(
            "amp_detector", "dlprof/amp-not-used",
            "underutilized_gpu_detector", "dlprof/underutilized-gpu",
            "no_iterations_detector", "dlprof/no-iterations",
            "batch_size_detector", "dlprof/small-batch-size",
            "no_fusion_detector", "dlprof/xla-not-enabled",
            "dataloader_detector", "dlprof/dataloader-bound",
            "cudnn_benchmark_detector", "dlprof/cudnn-benchmark-off");

    private static LintEngine engine;
    private static ProfileReaders readers;

    @TempDir
    static Path dir;

    @BeforeAll
    static void load() throws Exception {
        engine = LintEngine.load(EngineOptions.builtinOnly());
        readers = ProfileReaders.discover();
    }

    /** A variant: what it changes, and the detector DLProf's documented rule adds for it (or none). */
    record Variant(String name, String addedDetector, List<String> sql) {
    }

    static List<Variant> variants(Path db, boolean pytorch) throws Exception {
        List<Variant> v = new ArrayList<>();
        v.add(new Variant("as DLProf wrote it", null, List.of()));
        v.add(new Variant("kernel rows deleted (live capture / TensorFlow 1 mode)", null, List.of(
                "DELETE FROM read_only_kernels", "DELETE FROM kernel_iteration_node")));
        v.add(new Variant("only DLProf's aggregates (no kernel, copy, set or API rows)", null, List.of(
                "DELETE FROM read_only_kernels", "DELETE FROM kernel_iteration_node", "DELETE FROM read_only_memcpys",
                "DELETE FROM read_only_memsets", "DELETE FROM read_only_cuda_calls", "DELETE FROM read_only_cuda_syncs")));
        List<String> older = new ArrayList<>(SqliteVariant.dropViews(db));
        older.addAll(List.of("DROP TABLE db_version", "DROP TABLE iteration_aggregation_list", "DROP TABLE kernel_iteration_stats",
                "DROP TABLE kernel_iteration_node", "DROP TABLE group_ops", "DROP TABLE read_only_sub_ops",
                "ALTER TABLE op_nodes DROP COLUMN is_bad_data_type", "ALTER TABLE read_only_ops DROP COLUMN stack_trace",
                "ALTER TABLE model_summary DROP COLUMN io_duration_pct", "ALTER TABLE read_only_system_config DROP COLUMN mode_string"));
        v.add(new Variant("older/partial schema (no db_version, per-iteration tables, some columns)", null, older));
        if (pytorch) {
            // DLProf's detector: "Convolution operations were detected but torch.backends.cudnn.benchmark was not enabled"
            v.add(new Variant("live capture recording cudnn.benchmark off, no kernel rows", "cudnn_benchmark_detector", List.of(
                    "UPDATE read_only_model_config SET cudnn_benchmark_disabled = 1", "DELETE FROM read_only_kernels",
                    "DELETE FROM kernel_iteration_node")));
        } else {
            v.add(new Variant("TensorFlow 2 mode, framework column empty", null, List.of(
                    "UPDATE read_only_system_config SET framework = '', mode_string = 'tensorflow2', mode_enum = 2")));
        }
        return v;
    }

    @TestFactory
    Stream<DynamicTest> everyDlprofDetectorIsOneOfOurFindings() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        int databases = 0;
        for (String rel : Corpus.profiles()) {
            if (!rel.endsWith(".sqlite")) continue;
            Path db = Corpus.file(rel);
            if (!readers.readerFor(db).format().equals("dlprof-db")) continue;
            databases++;
            Set<String> dlprof = detectors(db);
            boolean pytorch = framework(db).toLowerCase().startsWith("pytorch");
            int n = 0;
            for (Variant v : variants(db, pytorch)) {
                int k = n++;
                tests.add(DynamicTest.dynamicTest(rel + " - " + v.name(), () -> {
                    Path file = v.sql().isEmpty() ? db : SqliteVariant.of(db, dir, rel.replace('/', '~') + "-" + k,
                            v.sql().toArray(String[]::new));
                    compare(rel + " (" + v.name() + ")", dlprof, v.addedDetector(), file);
                }));
            }
        }
        assertTrue(databases >= 5, "the corpus's DLProf databases: " + databases);
        return tests.stream();
    }

    private static void compare(String what, Set<String> dlprof, String added, Path file) throws Exception {
        ProfileFacts facts = readers.read(file, ReadOptions.DEFAULT);
        List<Finding> findings = engine.lint(facts);
        Set<String> ours = findings.stream().map(Finding::ruleId).filter(id -> id.startsWith("dlprof/"))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> expected = new TreeSet<>();
        for (String d : dlprof) {
            if (d.equals("dataloader_detector: No DALI ops detected")) continue; // not a problem: dataloader-bound.md
            String id = d.substring(0, d.indexOf(':'));
            assertTrue(DETECTORS.containsKey(id), "map DLProf detector " + id + " to its rule");
            expected.add(DETECTORS.get(id));
        }
        if (added != null) expected.add(DETECTORS.get(added));
        String listing = findings.stream().map(f -> f.ruleId() + " [" + f.subject().ref() + "]: " + f.problem())
                .collect(Collectors.joining("\n  "));
        for (String rule : expected) assertTrue(ours.contains(rule), what + ": DLProf's " + rule + " missing; ours:\n  " + listing);
        assertEquals(expected, ours, what + ": a dlprof finding DLProf did not report (document its reason); ours:\n  " + listing);
    }

    /** {@code detector: problem} of every row DLProf's expert systems wrote. */
    static Set<String> detectors(Path db) throws Exception {
        Set<String> out = new TreeSet<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db + "?mode=ro&immutable=1");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT exp_sys_id, problem FROM expert_systems_feedback")) {
            while (rs.next()) out.add(rs.getString(1) + ": " + rs.getString(2));
        }
        assertFalse(out.isEmpty(), db + " holds DLProf's expert-systems feedback");
        return out;
    }

    private static String framework(Path db) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db + "?mode=ro&immutable=1");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT framework FROM read_only_system_config")) {
            return rs.next() ? rs.getString(1) : "";
        }
    }

}
