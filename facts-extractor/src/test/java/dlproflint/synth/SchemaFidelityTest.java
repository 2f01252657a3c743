package dlproflint.synth;

import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Generated files have exactly the columns (name, type, NOT NULL, key) of real exports of the same version. */
class SchemaFidelityTest {
    /** What DLProf 1.8 added to its nsys file after the export. */
    private static final Set<String> DLPROF_COLUMNS = Set.of("kernel_name", "long_kernel_name", "cuda_name");

    @TempDir
    Path dir;

    @Test
    void nsys2022TablesMatchTheDlprofCorpusCapture() throws Exception {
        Path real = Corpus.file("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite");
        Path gen = everyEventKind(NsysSchema.NSYS_2022_1);
        compare(real, gen, List.of("StringIds", "NVTX_EVENTS", "CUPTI_ACTIVITY_KIND_RUNTIME",
                "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
                "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "TARGET_INFO_GPU", "ThreadNames", "PROCESSES",
                "EXPORT_META_DATA", "ANALYSIS_DETAILS", "TARGET_INFO_CUDA_NULL_STREAM", "TARGET_INFO_CUDA_STREAM",
                "TARGET_INFO_SYSTEM_ENV"));
    }

    @Test
    void nsys2025TablesMatchThe2025Capture() throws Exception {
        Path real = Corpus.file("cuda-perf-sandbox-nsys2025/report1.sqlite");
        Path gen = everyEventKind(NsysSchema.NSYS_2025_5);
        compare(real, gen, List.of("StringIds", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_KERNEL",
                "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "TARGET_INFO_GPU", "ThreadNames",
                "PROCESSES", "META_DATA_EXPORT", "META_DATA_CAPTURE", "TARGET_INFO_CUDA_CONTEXT_INFO",
                "TARGET_INFO_CUDA_DEVICE", "ENUM_NSYS_EVENT_TYPE", "ENUM_CUDA_MEM_KIND"));
        try (Sql r = Sql.open(real); Sql g = Sql.open(gen)) {
            assertEquals(r.rows("SELECT * FROM ENUM_NSYS_EVENT_TYPE ORDER BY id"), g.rows("SELECT * FROM ENUM_NSYS_EVENT_TYPE ORDER BY id"));
        }
    }

    private Path everyEventKind(NsysSchema schema) throws Exception {
        Path f = dir.resolve(schema + ".sqlite");
        try (SyntheticProfile p = SyntheticProfile.options().schema(schema).open(f)) {
            p.push("r").kernel("k", 1000).memcpy(SyntheticProfile.HTOD, 100, true, false).memset(10).deviceSynchronize().pop();
        }
        return f;
    }

    private static void compare(Path real, Path gen, List<String> tables) throws Exception {
        try (Sql r = Sql.open(real); Sql g = Sql.open(gen)) {
            for (String t : tables) {
                assertTrue(g.hasTable(t), "generated file lacks " + t);
                List<List<Object>> want = r.columns(t).stream().filter(c -> !DLPROF_COLUMNS.contains(c.get(0))).toList();
                assertEquals(want, g.columns(t), "columns of " + t);
            }
        }
    }
}
