package dlproflint.extract.nsys;

import dlproflint.extract.FileSniff;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ApiStat;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.KernelFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every Nsight Systems export in the corpus (nsys 2022.1 … 2025.5, DLProf-modified and stripped ones) reads
 * without error, and the facts agree with counts taken from the same file by plain SQL.
 */
class NsysCorpusTest {
    private static final NsysSqliteReader READER = new NsysSqliteReader();

    static Connection plain(Path db) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:file:" + db.toAbsolutePath().toUri().getRawPath()
                + "?mode=ro&immutable=1");
    }

    static long count(Path db, String sql) throws SQLException {
        try (Connection c = plain(db); ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        } catch (SQLException e) {
            if (String.valueOf(e.getMessage()).contains("no such table")) return 0;
            throw e;
        }
    }

    static List<String> gpuNames(Path db) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Connection c = plain(db); ResultSet rs = c.createStatement().executeQuery("SELECT name FROM TARGET_INFO_GPU ORDER BY id")) {
            while (rs.next()) names.add(rs.getString(1));
        }
        return names;
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "mohanadodema-dlprof/w_Relu/nsys_profile.sqlite",
            "mohanadodema-dlprof/root/nsys_profile.sqlite",
            "cutlass-bench-nsys2023/report1.sqlite",
            "cuda-perf-sandbox-nsys2025/report1.sqlite",
            "uvmtorch-nsys2025/report1.sqlite",
            "llama3-inference-nsys2024/real_inference_simulation.sqlite",
            "dynamicvit-dlprof-empty/nsys_profile.sqlite"})
    void readsEveryCorpusExport(String rel) throws Exception {
        Path db = Corpus.file(rel);
        assertTrue(READER.accepts(db, FileSniff.of(db)), rel + " is recognised as an nsys export");
        // every step aggregated (--iter-start 0), so the whole file's counts compare
        ProfileFacts f = READER.read(db, ALL_STEPS);
        assertEquals("nsys-sqlite", f.profile().format());

        // every GPU of the target, used or not, with its name
        List<String> names = gpuNames(db);
        assertEquals(names, f.gpus().stream().map(GpuInfo::name).toList(), rel + " GPUs");

        long kernels = count(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
        assertEquals(kernels, f.kernels().stream().mapToLong(KernelFact::calls).sum(), rel + " kernel launches");
        assertEquals(kernels, f.ops().stream().mapToLong(o -> o.kernelCalls()).sum(), rel + " kernels owned by ops");
        assertEquals(kernels > 0, f.hasKernels());
        if (kernels == 0) {
            assertTrue(f.warnings().stream().anyMatch(w -> w.code().equals("no-kernels")), rel + " says it has no kernels");
        }
        assertEquals(kernels, f.gpuUsage().stream().mapToLong(u -> u.kernelCount()).sum(), rel + " per-device kernels");

        long ranges = count(db, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60)");
        assertEquals(ranges, f.markers().nvtxRanges(), rel + " NVTX ranges");

        long apiCalls = count(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME");
        assertEquals(apiCalls, f.apiStats().stream().mapToLong(ApiStat::calls).sum(), rel + " API calls");

        long copies = count(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY");
        assertEquals(copies, f.memcpyStats().stream().mapToLong(m -> m.count()).sum(), rel + " memcpys");
        long sets = count(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET");
        assertEquals(sets, f.memsetStats().stream().mapToLong(m -> m.count()).sum(), rel + " memsets");

        // the time breakdown is flattened: buckets sum to 100 %
        var b = f.breakdown();
        double total = b.tcKernelPct() + b.nonTcKernelPct() + b.memoryPct() + b.dataloaderPct() + b.ioPct() + b.cpuPct()
                + b.otherPct();
        if (b.wallNs() > 0) assertEquals(100.0, total, 1e-6, rel + " breakdown sums to 100");
        assertEquals(f.iterationSummary().total(), f.iterations().size());
    }

    /** Every step aggregated: what {@code --iter-start 0} asks for. */
    static final ReadOptions ALL_STEPS = new ReadOptions(null, 0, null);

    @Test
    void llamaRangesBecomeOpsWithTheirKernels() throws Exception {
        Path db = Corpus.file("llama3-inference-nsys2024/real_inference_simulation.sqlite");
        ProfileFacts f = READER.read(db, ALL_STEPS);
        long distinctNames = count(db, "SELECT count(DISTINCT text) FROM NVTX_EVENTS WHERE eventType = 59");
        long namedOps = f.ops().stream().filter(o -> !o.unassociated()).count();
        assertEquals(distinctNames, namedOps, "plain user ranges aggregate by name");
        assertEquals(null, f.system().framework());
        assertEquals("NVIDIA GeForce RTX 4060 Ti", f.gpus().get(0).name());
        assertEquals(8, f.gpus().get(0).computeMajor());
    }

    @Test
    void secondDlprofCaptureIsPytorchWithPluginOps() throws Exception {
        Path db = Corpus.file("mohanadodema-dlprof/root/nsys_profile.sqlite");
        ProfileFacts f = READER.read(db, ReadOptions.DEFAULT);
        assertEquals("pytorch", f.system().framework());
        assertTrue(f.markers().dlprofMarkers() > 0);
        assertTrue(f.ops().stream().anyMatch(o -> o.type().equals("conv2d") && o.tcEligible() && !o.usesTc()));
        assertNotNull(f.ops().stream().filter(o -> o.type().equals("conv2d")).findFirst().orElseThrow().location());
    }

    @Test
    void dlprofDatabaseIsNotAnNsysExport() throws Exception {
        Path dldb = Corpus.file("mohanadodema-dlprof/w_Relu/dlprof_dldb_1.sqlite");
        assertFalse(READER.accepts(dldb, FileSniff.of(dldb)));
        Path kakack = Corpus.file("dlprof-kakack-dlprofer/dlprofviewer/dlproftool/dlprof_dldb.sqlite");
        assertFalse(READER.accepts(kakack, FileSniff.of(kakack)));
    }

    @Test
    void newestSchemaIsDetected() throws Exception {
        Path db = Corpus.file("cuda-perf-sandbox-nsys2025/report1.sqlite");
        ProfileFacts f = READER.read(db, ReadOptions.DEFAULT);
        String schema;
        try (Connection c = plain(db); ResultSet rs = c.createStatement().executeQuery(
                "SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION'")) {
            schema = rs.getString(1);
        }
        assertEquals(schema, f.profile().schemaVersion());
        assertNotNull(f.profile().profilerVersion());
        assertNotNull(f.system().driverVersion());
    }
}
