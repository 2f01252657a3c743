package dlproflint.extract.nsys;

import dlproflint.extract.FileSniff;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.Iteration;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.KernelFact;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.sql.DriverManager;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Read-only guarantee, bad input at reader level, and tolerance of odd but legal exports. */
class NsysReaderRobustnessTest {
    private static final NsysSqliteReader READER = new NsysSqliteReader();

    @TempDir
    Path tmp;

    private static String sha256(Path f) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
    }

    private static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void neverWritesNotEvenInAReadOnlyFolder() throws Exception {
        Path src = Corpus.file("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite");
        Path dir = Files.createDirectory(tmp.resolve("ro dir"));
        Path db = dir.resolve("profile #1.sqlite");
        Files.copy(src, db);
        String before = sha256(db);
        Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("r--r--r--"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            assertTrue(READER.accepts(db, FileSniff.of(db)));
            ProfileFacts f = READER.read(db, ReadOptions.DEFAULT);
            assertEquals(36, f.ops().size());
            READER.streamInstances(db, ReadOptions.DEFAULT, i -> { });
            assertEquals(before, sha256(db), "bytes unchanged");
            assertEquals(List.of("profile #1.sqlite"), listing(dir), "no journal, -wal or -shm file");
        } finally {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void notSqliteIsRefusedAndReportedOnOneLine() throws Exception {
        Path f = tmp.resolve("trace.json");
        Files.writeString(f, "{\"traceEvents\": []}");
        assertFalse(READER.accepts(f, FileSniff.of(f)));
        ProfileException e = assertThrows(ProfileException.class, () -> READER.read(f, ReadOptions.DEFAULT));
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void truncatedExportFailsWithOneLine() throws Exception {
        Path src = Corpus.file("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite");
        byte[] all = Files.readAllBytes(src);
        Path f = tmp.resolve("truncated.sqlite");
        Files.write(f, java.util.Arrays.copyOf(all, all.length / 3));
        ProfileException e = assertThrows(ProfileException.class, () -> {
            if (READER.accepts(f, FileSniff.of(f))) READER.read(f, ReadOptions.DEFAULT);
            else throw new ProfileException(f, "not accepted");
        });
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertEquals(f, e.file());
    }

    @Test
    void sqliteWithoutNsysTablesIsNotAccepted() throws Exception {
        Path f = tmp.resolve("other.sqlite");
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + f)) {
            c.createStatement().execute("CREATE TABLE notes (id INTEGER, body TEXT)");
        }
        assertFalse(READER.accepts(f, FileSniff.of(f)));
        ProfileException e = assertThrows(ProfileException.class, () -> READER.read(f, ReadOptions.DEFAULT));
        assertTrue(e.getMessage().contains("without Nsight Systems tables"), e.getMessage());
    }

    @Test
    void exportWithOnlyTargetInfoIsAValidProfileWithoutKernels() throws Exception {
        Path f = tmp.resolve("bare.sqlite");
        try (SyntheticNsys s = new SyntheticNsys(f)) {
            s.sql("DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME");
            s.sql("DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL");
            s.sql("DROP TABLE NVTX_EVENTS");
        }
        ProfileFacts p = READER.read(f, ReadOptions.DEFAULT);
        assertFalse(p.hasKernels());
        assertEquals(2, p.gpus().size());
        assertTrue(p.gpuUsage().stream().noneMatch(u -> u.used()), "both GPUs unused");
        assertTrue(p.warnings().stream().anyMatch(w -> w.code().equals("no-kernels")));
    }

    @Test
    void toleratesNullsInvertedTimesDuplicateCorrelationsAndUnclosedRanges() throws Exception {
        Path f = tmp.resolve("odd.sqlite");
        try (SyntheticNsys s = new SyntheticNsys(f)) {
            s.steps(30);
            s.sql("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) VALUES (50000000, NULL, 59, 'never closed', "
                    + SyntheticNsys.TID + ")");
            s.sql("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) VALUES (1000, NULL, 34, 'a mark', "
                    + SyntheticNsys.TID + ")");
            s.sql("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, globalTid, correlationId, nameId) VALUES"
                    + " (50000100, 50000050, " + SyntheticNsys.TID + ", NULL, 5)"); // end < start, NULL correlation
            s.sql("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, correlationId, globalPid, demangledName,"
                    + " shortName) VALUES (1000400, 1000900, 0, 1, " + SyntheticNsys.PID + ", 3, 2)"); // duplicate of correlation 1
            s.sql("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, correlationId, globalPid, demangledName,"
                    + " shortName) VALUES (60000000, 60000500, 1, NULL, " + SyntheticNsys.PID + ", NULL, NULL)");
        }
        ProfileFacts p = READER.read(f, ReadOptions.DEFAULT);
        assertEquals(32, p.kernels().stream().mapToLong(KernelFact::calls).sum(), "every kernel is counted once");
        assertTrue(p.warnings().stream().anyMatch(w -> w.code().equals("unclosed-ranges")));
        assertTrue(p.warnings().stream().anyMatch(w -> w.code().equals("gpu-without-api")));
        assertTrue(p.ops().stream().anyMatch(o -> o.name().equals("never closed")));
        assertTrue(p.ops().stream().allMatch(o -> o.cpuTime().min() >= 0));
        assertTrue(p.gpuUsage().stream().anyMatch(u -> u.deviceId() == 1 && u.kernelCount() == 1));
    }

    @Test
    void keyNodeSplitsIterationsAndTheRangeIsInclusive() throws Exception {
        Path f = tmp.resolve("iters.sqlite");
        try (SyntheticNsys s = new SyntheticNsys(f)) {
            s.steps(100);
        }
        ProfileFacts all = READER.read(f, new ReadOptions("step", null, null));
        assertEquals(11, all.iterationSummary().total(), "10 key-node instances give 11 intervals");
        assertTrue(all.iterationSummary().keyNodeFound());
        assertEquals("user", all.iterationSummary().keyNodeSource());
        assertEquals(0, all.iterations().get(0).startNs());
        assertEquals(all.iterations().get(1).startNs(), 1_000_000L + 9 * 1000L + 900, "split at the key node's stop");

        ProfileFacts some = READER.read(f, new ReadOptions("step", 2, 4));
        assertEquals(3, some.iterationSummary().aggregated());
        long stepCalls = some.ops().stream().filter(o -> o.name().equals("step")).mapToLong(OpFact::calls).sum();
        assertEquals(3, stepCalls, "iterations 2..4 inclusive each hold one key-node instance (its range ends them)");
        long kernels = some.kernels().stream().mapToLong(KernelFact::calls).sum();
        assertEquals(30, kernels);

        ProfileFacts missing = READER.read(f, new ReadOptions("no_such_op", null, null));
        assertEquals(10, missing.iterationSummary().total(), "the ranges named 'step' are found instead");
        assertEquals(IterationSummary.NAMED_RANGES, missing.iterationSummary().method());
        assertTrue(missing.warnings().stream().anyMatch(w -> w.code().equals("key-node-not-found")
                && w.message().contains("'no_such_op' not found; iterations were found by repeated ranges step instead")),
                missing.warnings().toString());
    }

    @Test
    void tensorCoreKernelsAreRecognisedByName() throws Exception {
        Path f = tmp.resolve("tc.sqlite");
        try (SyntheticNsys s = new SyntheticNsys(f)) {
            s.steps(30);
        }
        // every step aggregated: the launches before the first "step" range make step 0 look like warm-up
        ProfileFacts p = READER.read(f, new ReadOptions(null, 0, null));
        assertEquals(10, p.kernels().stream().filter(KernelFact::usesTc).mapToLong(KernelFact::calls).sum());
        assertTrue(p.breakdown().tcKernelPct() > 0);
        double tcShare = p.iterations().stream().mapToLong(Iteration::tcTimeNs).sum()
                / (double) p.iterations().stream().mapToLong(Iteration::gpuTimeNs).sum();
        assertEquals(1.0 / 3, tcShare, 1e-9, "every third kernel, over all iterations");
    }

    @Test
    void early2021GpuTableAndNewMetadataTableAreBothUnderstood() throws Exception {
        Path f = tmp.resolve("old-gpu.sqlite");
        try (SyntheticNsys s = new SyntheticNsys(f)) {
            s.steps(5);
            s.sql("DROP TABLE TARGET_INFO_GPU");
            s.sql("CREATE TABLE TARGET_INFO_CUDA_GPU (deviceId INTEGER, name TEXT, numMultiprocessors INTEGER, totalMemory INTEGER,"
                    + " computeCapabilityMajor INTEGER, computeCapabilityMinor INTEGER)");
            s.sql("INSERT INTO TARGET_INFO_CUDA_GPU VALUES (0, 'Tesla V100-SXM2-16GB', 80, 17179869184, 7, 0)");
            s.sql("ALTER TABLE EXPORT_META_DATA RENAME TO META_DATA_EXPORT");
        }
        ProfileFacts p = READER.read(f, ReadOptions.DEFAULT);
        assertEquals("Tesla V100-SXM2-16GB", p.gpus().get(0).name());
        assertEquals(80, p.gpus().get(0).smCount());
        assertEquals("7.0", p.gpus().get(0).computeCapability());
        assertEquals("3.1.7", p.profile().schemaVersion());
    }

    @Test
    void registeredStringRangesInATensorRtDomain() throws Exception {
        Path f = tmp.resolve("trt.sqlite");
        try (SyntheticNsys s = new SyntheticNsys(f)) {
            s.steps(4);
            s.sql("INSERT INTO StringIds VALUES (50, 'conv1 + relu1')");
            s.sql("UPDATE NVTX_EVENTS SET text = NULL, textId = 50, domainId = 1");
            s.sql("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES (10, NULL, 75, 'TensorRT', "
                    + SyntheticNsys.TID + ", 1)");
        }
        ProfileFacts p = READER.read(f, ReadOptions.DEFAULT);
        assertEquals(4, p.markers().textIdRanges());
        assertEquals("tensorrt", p.system().framework());
        OpFact op = p.ops().stream().filter(o -> o.name().equals("conv1 + relu1")).findFirst().orElseThrow();
        assertEquals(4, op.calls());
        assertEquals(4, op.kernelCalls());
    }
}
