package dlproflint.synth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fluent builder writes what it is told, in the nsys layout, read back with plain JDBC. */
class SyntheticProfileTest {
    @TempDir
    Path dir;

    @Test
    void oneOpWithTwoKernelsAndAnUnclosedRange() throws Exception {
        Path f = dir.resolve("hand.sqlite");
        try (SyntheticProfile p = SyntheticProfile.options().gpus(GpuModel.A100_SXM4_40GB, 1).seed(3).open(f)) {
            p.push("aten::conv2d, seq = 0")
                    .kernel(Kernels.CONV_FP32_IMPLICIT, 200_000)
                    .kernel("my_relu_kernel", 10_000)
                    .pop();
            p.mark("epoch 0");
            p.pushRegistered("TensorRT:ExecutionContext::enqueue", 1).pop();
            long id = p.startRange("data loading");
            p.thread("worker").endRange(id).mainThread();
            p.push("never closed");
        }
        try (Sql db = Sql.open(f)) {
            assertEquals(2, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
            assertEquals(2, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
            assertEquals(5, db.count("SELECT count(*) FROM NVTX_EVENTS"));
            // names resolve through StringIds
            assertEquals(List.of("implicit_convolve_sgemm", "my_relu_kernel"), db.strings(
                    "SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName ORDER BY k.start"));
            assertEquals(2, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName"));
            assertEquals(List.of("cudaLaunchKernel_v7000", "cudaLaunchKernel_v7000"), db.strings(
                    "SELECT s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId"));
            assertEquals(0, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE shortName = 0 OR demangledName = 0"));
            // each kernel has exactly one launching call in its process, issued before it started
            assertEquals(2, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
                    + "ON r.correlationId = k.correlationId AND (r.globalTid >> 24) = (k.globalPid >> 24) "
                    + "WHERE r.start < k.start AND k.end - k.start IN (200000, 10000)"));
            // both calls lie inside the op's range on the same thread
            assertEquals(2, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN NVTX_EVENTS n "
                    + "ON n.globalTid = r.globalTid AND n.start <= r.start AND r.end <= n.end WHERE n.text = 'aten::conv2d, seq = 0'"));
            // kernels queue on the device: the second starts after the first ends
            List<List<Object>> k = db.rows("SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start");
            assertTrue((Long) k.get(1).get(0) >= (Long) k.get(0).get(1));
            // mark, unclosed range: end NULL
            assertEquals(List.of("34|null", "59|null"), db.strings(
                    "SELECT eventType || '|' || coalesce(end, 'null') FROM NVTX_EVENTS WHERE text IN ('epoch 0', 'never closed') ORDER BY eventType"));
            // registered string: text NULL, textId resolves, own domain
            List<Object> reg = db.rows("SELECT n.text, s.value, n.domainId FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId").get(0);
            assertNull(reg.get(0));
            assertEquals("TensorRT:ExecutionContext::enqueue", reg.get(1));
            assertEquals(1, ((Number) reg.get(2)).intValue());
            // start/end range closed on another thread of the same process
            List<Object> se = db.rows("SELECT globalTid, endGlobalTid, rangeId FROM NVTX_EVENTS WHERE eventType = 60").get(0);
            assertFalse(se.get(0).equals(se.get(1)));
            assertEquals(((Long) se.get(0)) >> 24, ((Long) se.get(1)) >> 24);
            assertEquals(2, db.count("SELECT count(*) FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId "
                    + "WHERE s.value IN ('python3', 'worker')"));
            // rows are in start order per thread, as nsys writes them
            List<String> starts = db.strings("SELECT start FROM NVTX_EVENTS WHERE globalTid = (SELECT min(globalTid) FROM NVTX_EVENTS) ORDER BY rowid");
            assertEquals(starts.stream().map(Long::parseLong).sorted().map(String::valueOf).toList(), starts);
            // globalTid encoding: VM id in bits 48+, pid in bits 24..47
            assertEquals(4242, db.count("SELECT (globalTid >> 24) & 16777215 FROM CUPTI_ACTIVITY_KIND_RUNTIME LIMIT 1"));
            assertEquals(1, db.count("SELECT globalTid >> 48 FROM CUPTI_ACTIVITY_KIND_RUNTIME LIMIT 1"));
            // like nsys, no table for events that did not happen
            assertFalse(db.hasTable("CUPTI_ACTIVITY_KIND_MEMSET"));
            assertFalse(db.hasTable("CUPTI_ACTIVITY_KIND_MEMCPY"));
            assertEquals("NVIDIA A100-SXM4-40GB", db.strings("SELECT name FROM TARGET_INFO_GPU").get(0));
            assertEquals("2.9.1", db.strings("SELECT value FROM EXPORT_META_DATA WHERE name = 'EXPORT_SCHEMA_VERSION'").get(0));
            // ANALYSIS_DETAILS spans every event
            assertEquals(0, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL, ANALYSIS_DETAILS a "
                    + "WHERE start < a.startTime OR end > a.stopTime"));
        }
    }

    @Test
    void blockingCallsWaitForTheGpu() throws Exception {
        Path f = dir.resolve("sync.sqlite");
        try (SyntheticProfile p = SyntheticProfile.options().open(f)) {
            p.kernel("long_kernel", 5_000_000).deviceSynchronize();
            p.memcpy(SyntheticProfile.HTOD, 64L << 20, true, true);   // pageable: the async call blocks
            p.memcpy(SyntheticProfile.HTOD, 64L << 20, false, true);  // pinned: it returns at once
            p.memset(4096).streamSynchronize();
        }
        try (Sql db = Sql.open(f)) {
            long kernelEnd = db.count("SELECT end FROM CUPTI_ACTIVITY_KIND_KERNEL");
            List<List<Object>> sync = db.rows("SELECT r.end, y.syncType FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
                    + "JOIN StringIds s ON s.id = r.nameId JOIN CUPTI_ACTIVITY_KIND_SYNCHRONIZATION y ON y.correlationId = r.correlationId "
                    + "WHERE s.value = 'cudaDeviceSynchronize_v3020'");
            assertTrue((Long) sync.get(0).get(0) >= kernelEnd, "cudaDeviceSynchronize returns after the kernel ends");
            assertEquals(4, ((Number) sync.get(0).get(1)).intValue());
            List<List<Object>> copies = db.rows("SELECT r.end >= m.end, m.srcKind, m.dstKind, m.copyKind FROM CUPTI_ACTIVITY_KIND_MEMCPY m "
                    + "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = m.correlationId ORDER BY m.start");
            assertEquals(List.of(1, 0, 2, 1), copies.get(0).stream().map(o -> ((Number) o).intValue()).toList());
            assertEquals(List.of(0, 1, 2, 1), copies.get(1).stream().map(o -> ((Number) o).intValue()).toList());
            assertEquals(1, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE memKind = 2 AND bytes = 4096"));
        }
    }

    @Test
    void modernSchemaHasEnumTablesAndGreenContextColumns() throws Exception {
        Path f = dir.resolve("modern.sqlite");
        try (SyntheticProfile p = SyntheticProfile.options().schema(NsysSchema.NSYS_2025_5).open(f)) {
            p.push("step").kernel(Kernels.GEMM_TC).memset(1024).pop();
        }
        try (Sql db = Sql.open(f)) {
            assertFalse(db.hasTable("EXPORT_META_DATA"));
            assertEquals("3.24.0", db.strings("SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION'").get(0));
            assertEquals("NvtxPushPopRange", db.strings("SELECT name FROM ENUM_NSYS_EVENT_TYPE WHERE id = 59").get(0));
            assertEquals("Pageable", db.strings("SELECT label FROM ENUM_CUDA_MEM_KIND WHERE id = 0").get(0));
            assertTrue(db.columns("CUPTI_ACTIVITY_KIND_KERNEL").stream().anyMatch(c -> c.get(0).equals("greenContextId")));
            assertTrue(db.hasTable("TARGET_INFO_CUDA_CONTEXT_INFO"));
            assertFalse(db.hasTable("TARGET_INFO_CUDA_NULL_STREAM"));
            assertEquals(1, db.count("SELECT count(*) FROM TARGET_INFO_CUDA_DEVICE"));
            assertEquals(1, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET"));
        }
    }

    @Test
    void unusedGpusAreListedButGetNoWork() throws Exception {
        Path f = dir.resolve("unused.sqlite");
        try (SyntheticProfile p = SyntheticProfile.options().gpus(GpuModel.V100_SXM2_16GB, 4, 1).open(f)) {
            p.kernel("k", 1000);
            assertThrows(IllegalArgumentException.class, () -> p.rank(1));
        }
        try (Sql db = Sql.open(f)) {
            assertEquals(4, db.count("SELECT count(*) FROM TARGET_INFO_GPU"));
            assertEquals(List.of("0"), db.strings("SELECT DISTINCT deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL"));
        }
    }

    @Test
    void sameSeedSameBytesOtherSeedOtherTimes() throws Exception {
        WorkloadSpec spec = WorkloadSpec.builder().iterations(3).opsPerIteration(8).kernelsPerOp(2).backward(true)
                .dlprofMarkers(true).seed(11).build();
        Path a = dir.resolve("a.sqlite");
        Path b = dir.resolve("b.sqlite");
        Path c = dir.resolve("c.sqlite");
        Workload.generate(spec, a);
        Workload.generate(spec, b);
        Workload.generate(WorkloadSpec.builder().iterations(3).opsPerIteration(8).kernelsPerOp(2).backward(true)
                .dlprofMarkers(true).seed(12).build(), c);
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
        try (Sql da = Sql.open(a); Sql dc = Sql.open(c)) {
            String q = "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL";
            assertEquals(da.count(q), dc.count(q));
            assertFalse(da.rows("SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL").equals(
                    dc.rows("SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL")));
        }
    }

    @Test
    void misuseFailsClearlyAndLeavesNoFile() throws Exception {
        Path f = dir.resolve("bad.sqlite");
        SyntheticProfile p = SyntheticProfile.options().open(f);
        assertThrows(IllegalStateException.class, p::pop);
        p.db().abort();
        try (var files = Files.list(dir)) {
            assertEquals(List.of(), files.toList());
        }
    }
}
