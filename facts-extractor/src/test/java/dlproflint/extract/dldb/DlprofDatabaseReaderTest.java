package dlproflint.extract.dldb;

import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.KernelInstance;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import dlproflint.testing.SqliteVariant;
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

    /** A live capture that kept no kernel rows: GPU use, launches and tensor-core time come from DLProf's aggregates. */
    @Test
    void withoutKernelRowsDlprofsAggregatesStandIn() throws Exception {
        Path db = Corpus.file(PYTORCH_DB);
        ProfileFacts full = ProfileReaders.discover().read(db, ReadOptions.DEFAULT);
        Path variant = SqliteVariant.of(db, tmp, "no-kernel-rows", "DELETE FROM read_only_kernels",
                "DELETE FROM kernel_iteration_node", "DELETE FROM read_only_memcpys", "DELETE FROM read_only_memsets");
        ProfileFacts f = ProfileReaders.discover().read(variant, ReadOptions.DEFAULT);
        assertTrue(f.warnings().stream().anyMatch(w -> w.code().equals("no-kernel-data")), f.warnings().toString());
        GpuUsage u = f.gpuUsage().get(0);
        assertTrue(u.used(), "DLProf's device utilisation says the GPU worked");
        assertEquals(count(db, "SELECT SUM(kernel_calls) FROM op_nodes"), u.kernelCount(), "launches counted by DLProf's op nodes");
        assertEquals(full.kernels().size(), f.kernels().size(), "kernel summaries survive without the rows");
        assertTrue(f.kernels().stream().allMatch(k -> k.deviceId() == 0), "the only GPU");
        assertEquals(full.ops().size(), f.ops().size());
        assertEquals(full.breakdown(), f.breakdown(), "DLProf's own summary");
        List<KernelInstance> none = new ArrayList<>();
        ProfileReaders.discover().readerFor(variant).streamInstances(variant, ReadOptions.DEFAULT, none::add);
        assertEquals(List.of(), none, "no launches to stream");
    }

    /** A database from an older or partial DLProf: read around what is missing, and say what it is. */
    @Test
    void missingTablesAndColumnsAreNamedNotFatal() throws Exception {
        Path db = Corpus.file(PYTORCH_DB);
        List<String> sql = new ArrayList<>(SqliteVariant.dropViews(db));
        sql.addAll(List.of("DROP TABLE db_version", "DROP TABLE gpu_memories", "DROP TABLE device_gpu_utilizations",
                "DROP TABLE read_only_model_config", "ALTER TABLE read_only_ops DROP COLUMN stack_trace",
                "ALTER TABLE model_summary DROP COLUMN io_duration_pct"));
        Path variant = SqliteVariant.of(db, tmp, "older-schema", sql.toArray(String[]::new));
        ProfileFacts f = ProfileReaders.discover().read(variant, ReadOptions.DEFAULT);
        String partial = f.warnings().stream().filter(w -> w.code().equals("dlprof-db-partial")).findFirst().orElseThrow().message();
        for (String part : List.of("gpu_memories", "device_gpu_utilizations", "read_only_model_config",
                "read_only_ops.stack_trace", "model_summary.io_duration_pct")) {
            assertTrue(partial.contains(part), part + " named in: " + partial);
        }
        assertTrue(partial.contains("(version not recorded)"), partial);
        assertEquals(-1, f.gpus().get(0).usedMemoryBytes(), "memory unknown without gpu_memories");
        assertNull(f.modelConfig().cudnnBenchmark(), "settings unknown without read_only_model_config");
        assertTrue(f.ops().stream().allMatch(o -> o.stack().isEmpty()));
        assertEquals(5, f.ops().stream().filter(OpFact::tcEligibleNotUsing).count(), "DLProf's op nodes are still read");
    }

    /** The iteration report's stream: one instance per kernel, copy and set row, in start order per device. */
    @Test
    void instancesAreDlprofsRowsInStartOrder() throws Exception {
        Path db = Corpus.file(PYTORCH_DB);
        List<KernelInstance> all = new ArrayList<>();
        ProfileReaders.discover().readerFor(db).streamInstances(db, ReadOptions.DEFAULT, all::add);
        assertEquals(count(db, "SELECT COUNT(*) FROM read_only_kernels"), all.stream().filter(i -> i.kind().equals("kernel")).count());
        assertEquals(count(db, "SELECT COUNT(*) FROM read_only_memcpys"), all.stream().filter(i -> i.kind().equals("memcpy")).count());
        for (int i = 1; i < all.size(); i++) {
            assertTrue(all.get(i).deviceId() > all.get(i - 1).deviceId() || all.get(i).gpuStartNs() >= all.get(i - 1).gpuStartNs());
        }
        KernelInstance conv = all.stream().filter(i -> i.opId().equals("CONV2D_1")).findFirst().orElseThrow();
        assertEquals("conv2d", conv.opType());
        assertEquals("float32", conv.dataTypes());
        assertEquals(text(db, "SELECT d.string FROM read_only_op_instances i JOIN read_only_ops o ON o.id = i.read_only_ops_id "
                + "JOIN dictionary d ON d.id = i.input_shapes_id WHERE o.op_id = 'CONV2D_1'"), conv.inputShapes());
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

    private static String text(Path db, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db + "?mode=ro&immutable=1");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static String sha256(Path p) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
    }
}
