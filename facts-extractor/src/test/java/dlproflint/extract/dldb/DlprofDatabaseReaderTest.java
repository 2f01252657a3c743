package dlproflint.extract.dldb;

import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real DLProf 1.8 databases: the facts must carry exactly what DLProf's own expert system reported
 * from them (its {@code expert_systems_feedback} rows, read in the test, are the expected values).
 */
class DlprofDatabaseReaderTest {
    private static final String PYTORCH_DB = "mohanadodema-dlprof/root/dlprof_dldb.sqlite";
    private static final String TF_DB = "dlprof-kakack-dlprofer/dlprofviewer/dlproftool/dlprof_dldb.sqlite";

    @TempDir
    Path tmp;

    private static List<String> feedback(Path db) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db + "?mode=ro&immutable=1");
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT exp_sys_id || '|' || problem FROM expert_systems_feedback")) {
            while (rs.next()) rows.add(rs.getString(1));
        }
        return rows;
    }

    private static int number(List<String> feedback, String detector, String regex) {
        String row = feedback.stream().filter(r -> r.startsWith(detector + "|")).findFirst().orElseThrow();
        Matcher m = Pattern.compile(regex).matcher(row);
        assertTrue(m.find(), row);
        return Integer.parseInt(m.group(1));
    }

    @Test
    void pytorchDatabaseCarriesDlprofsOwnSignals() throws Exception {
        Path db = Corpus.file(PYTORCH_DB);
        ProfileFacts f = ProfileReaders.discover().read(db, ReadOptions.DEFAULT);
        List<String> fb = feedback(db);
        assertEquals("dlprof-db", f.profile().format());
        assertEquals("pytorch", f.system().framework());
        assertEquals("NVIDIA GeForce RTX 2070 SUPER", f.gpus().get(0).name());
        // amp_detector: "5 ops were eligible to use tensor cores but none are using FP16"
        long eligible = f.ops().stream().filter(OpFact::tcEligibleNotUsing).count();
        assertEquals(number(fb, "amp_detector", "^\\w+\\|(\\d+) ops? w"), eligible);
        // batch_size_detector: "Only 23% of GPU Memory is used" (DLProf truncates)
        GpuInfo gpu = f.gpus().get(0);
        assertEquals(number(fb, "batch_size_detector", "Only (\\d+)%"), (int) gpu.memoryUsedPct());
        // underutilized_gpu_detector: "Only 0.0% ...", "CPU has the highest (non-GPU) usage at 78.9%"
        assertEquals("CPU", f.breakdown().topNonGpuCategory());
        assertEquals(78.9, Math.round(f.breakdown().cpuPct() * 10) / 10.0);
        // no_iterations_detector: the whole profile is one iteration, the key op was not found
        assertFalse(f.iterationSummary().keyNodeFound());
        assertEquals(1, f.iterationSummary().total());
        assertEquals(Boolean.TRUE, f.modelConfig().cudnnBenchmark(), "cudnn_benchmark_disabled = 0");
        assertEquals(Boolean.TRUE, f.modelConfig().emitNvtx());
        assertTrue(f.ops().stream().filter(OpFact::tcEligible).allMatch(o -> o.location() != null
                && o.location().file().equals("dummy_network.py")), "stack traces start at the user's file");
        assertEquals(count(db, "SELECT COUNT(*) FROM op_nodes"), f.ops().size());
        assertEquals(count(db, "SELECT COUNT(*) FROM kernel_summaries"), f.kernels().size());
    }

    @Test
    void tensorflowDatabaseWithEightIdleGpus() throws Exception {
        Path db = Corpus.file(TF_DB);
        ProfileFacts f = ProfileReaders.discover().read(db, ReadOptions.DEFAULT);
        List<String> fb = feedback(db);
        assertEquals("tensorflow", f.system().framework());
        assertEquals("1.15.5", f.system().frameworkVersion());
        assertEquals(8, f.gpus().size());
        assertTrue(f.gpuUsage().stream().allMatch(u -> u.kernelCount() == 0 && u.utilizationPct() == 0.0),
                "DLProf: 'The following GPU device IDs are not being used: 0 1 2 3 4 5 6 7'");
        assertEquals("global_step", f.iterationSummary().keyNode(), "'key op global_step not found'");
        assertFalse(f.iterationSummary().keyNodeFound());
        assertEquals(number(fb, "amp_detector", "^\\w+\\|(\\d+) ops? w"),
                f.ops().stream().filter(OpFact::tcEligibleNotUsing).count());
        int maxUsedPct = (int) f.gpus().stream().mapToDouble(GpuInfo::memoryUsedPct).max().orElseThrow();
        assertEquals(number(fb, "batch_size_detector", "Only (\\d+)%"), maxUsedPct);
        assertEquals(0, f.markers().xlaOps(), "'XLA is not enabled: No XLA ops detected'");
        assertNull(f.modelConfig().cudnnBenchmark(), "TensorFlow mode records no PyTorch settings");
    }

    @Test
    void unknownDatabaseVersionIsRefusedWithoutTouchingTheFile() throws Exception {
        Path copy = tmp.resolve("dlprof_dldb.sqlite");
        Files.copy(Corpus.file(PYTORCH_DB), copy);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE db_version SET current_version = '2.0.0'");
        }
        String before = sha256(copy);
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileReaders.discover().read(copy, ReadOptions.DEFAULT));
        assertTrue(e.getMessage().contains("unsupported DLProf database version 2.0.0"), e.getMessage());
        assertEquals(before, sha256(copy));
    }

    @Test
    void readingNeverModifiesTheDatabase() throws Exception {
        Path db = Corpus.file(PYTORCH_DB);
        String before = sha256(db);
        ProfileReaders.discover().read(db, ReadOptions.DEFAULT);
        assertEquals(before, sha256(db));
        assertFalse(Files.exists(Path.of(db + "-journal")) || Files.exists(Path.of(db + "-wal")));
    }

    private static long count(Path db, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db + "?mode=ro&immutable=1");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    private static String sha256(Path p) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
    }
}
