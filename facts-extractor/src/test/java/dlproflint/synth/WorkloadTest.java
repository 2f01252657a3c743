package dlproflint.synth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The size-driven mode produces exactly the launches, calls and ranges its spec asks for. */
class WorkloadTest {
    @TempDir
    Path dir;

    @Test
    void twoGpuTrainingLoopHasTheRequestedShape() throws Exception {
        WorkloadSpec spec = WorkloadSpec.builder().schema(NsysSchema.NSYS_2025_5).gpu(GpuModel.A100_SXM4_40GB).gpus(2)
                .installedGpus(4).iterations(5).opsPerIteration(12).kernelsPerOp(3).backward(true).emitNvtx(true)
                .dlprofMarkers(true).inputBytes(1 << 20).pageableMemcpy(true).deviceSync(true).tensorCores(true)
                .dataloaderGapNs(1_000_000).build();
        Path f = dir.resolve("w.sqlite");
        Workload.Result r = Workload.generate(spec, f);
        assertEquals(360, spec.expectedKernels());
        assertEquals(360, r.kernels());
        try (Sql db = Sql.open(f)) {
            assertEquals(360, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
            assertEquals(360, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                    + "WHERE s.value = 'cudaLaunchKernel_v7000'"));
            assertEquals(r.apiCalls(), db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
            assertEquals(r.nvtxEvents(), db.count("SELECT count(*) FROM NVTX_EVENTS"));
            // two processes, each on its own device, correlation ids unique within a process only
            assertEquals(List.of("0|180", "1|180"), db.strings("SELECT deviceId || '|' || count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY deviceId"));
            assertEquals(0, db.count("SELECT count(*) FROM (SELECT globalPid, correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL "
                    + "GROUP BY 1, 2 HAVING count(*) > 1)"));
            assertTrue(db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL a JOIN CUPTI_ACTIVITY_KIND_KERNEL b "
                    + "ON a.correlationId = b.correlationId AND a.globalPid < b.globalPid") > 0, "ids repeat across processes");
            // every launch lies in an aten/Backward range of its own thread
            assertEquals(0, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                    + "WHERE s.value = 'cudaLaunchKernel_v7000' AND NOT EXISTS (SELECT 1 FROM NVTX_EVENTS n WHERE n.globalTid = r.globalTid "
                    + "AND n.start <= r.start AND r.end <= n.end AND n.text LIKE '%, seq = %')"));
            // backward nodes run on the autograd thread
            assertEquals(List.of("pt_autograd_0"), db.strings("SELECT DISTINCT s.value FROM NVTX_EVENTS n JOIN ThreadNames t "
                    + "ON t.globalTid = n.globalTid JOIN StringIds s ON s.id = t.nameId WHERE n.text LIKE '%Backward0, seq = %'"));
            assertEquals(60, db.count("SELECT count(*) FROM NVTX_EVENTS WHERE text LIKE '{''mod'':%'"));
            assertEquals(60, db.count("SELECT count(*) FROM NVTX_EVENTS WHERE text LIKE '{''traceMarker'':%'"));
            assertEquals(0, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName "
                    + "WHERE s.value LIKE '%sgemm%' OR s.value = 'implicit_convolve_sgemm'"));
            assertEquals(10, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE srcKind = 0 AND copyKind = 1"));
            assertEquals(10, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"));
            assertEquals(4, db.count("SELECT count(*) FROM TARGET_INFO_GPU"));
        }
    }

    @Test
    void examplePresetShowsTheProblemsItIsMeantToShow() throws Exception {
        Path f = dir.resolve("ex.sqlite");
        Workload.generate(WorkloadSpec.resnetLikeFp32(), f);
        try (Sql db = Sql.open(f)) {
            // fp32 conv/gemm kernels only, on a tensor-core GPU
            assertTrue(db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName "
                    + "WHERE s.value IN ('implicit_convolve_sgemm', 'volta_sgemm_128x64_tn')") > 0);
            assertEquals(0, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName "
                    + "WHERE s.value LIKE '%h884%' OR s.value LIKE '%xmma%' OR s.value LIKE '%s1688%'"));
            assertEquals(7, db.count("SELECT computeMajor FROM TARGET_INFO_GPU"));
            assertTrue(db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1 AND srcKind = 0") >= 10);
            assertEquals(10, db.count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                    + "WHERE s.value = 'cudaDeviceSynchronize_v3020'"));
            // low utilisation: kernels busy well under half of the analysed span
            long busy = db.count("SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
            long span = db.count("SELECT duration FROM ANALYSIS_DETAILS");
            assertTrue(busy * 100 / span < 40, "GPU busy " + busy + " of " + span);
            String cfg = db.strings("SELECT text FROM NVTX_EVENTS WHERE text LIKE '{\"model_config\"%'").get(0);
            assertTrue(cfg.contains("\"cudnn_benchmark_disabled\": true") && cfg.contains("\"emit_nvtx\": true"), cfg);
            assertTrue(db.count("SELECT count(*) FROM NVTX_EVENTS WHERE text LIKE 'aten::conv2d, seq = %'") >= 10);
        }
    }

    @Test
    void commandLineParsesPresetsAndOverrides() {
        GenerateProfile.Parsed p = GenerateProfile.parse(new String[]{"--preset", "benchmark-1m", "--iterations", "2",
                "--no-backward", "--schema", "2025.5", "out.sqlite"});
        assertEquals(2, p.spec().iterations());
        assertEquals(100, p.spec().opsPerIteration());
        assertEquals(NsysSchema.NSYS_2025_5, p.spec().schema());
        assertEquals(2000, p.spec().expectedKernels());
        assertEquals(1_000_000, WorkloadSpec.benchmark1M().expectedKernels());
        assertThrows(IllegalArgumentException.class, () -> GenerateProfile.parse(new String[]{"--bogus", "x"}));
        assertThrows(IllegalArgumentException.class, () -> GenerateProfile.parse(new String[]{"--iterations", "x", "o"}));
        assertThrows(IllegalArgumentException.class, () -> GenerateProfile.parse(new String[]{}));
    }
}
