package dlproflint.reporters.dlprof;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.findings.Finding;
import dlproflint.findings.Severity;
import dlproflint.findings.Subject;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.Direction;
import dlproflint.facts.KernelInstance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DlprofReportsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path PROFILE = Path.of("profile.sqlite");

    private static final KernelInstance MEMCPY = new KernelInstance("memcpy", 0, "CUDA_1", "/module/cuda",
            Direction.FPROP, "cuda", "[CUDA memcpy HtoD]", "[CUDA memcpy HtoD]", 0, 10, 960, 5, 3000, false,
            0, 0, 0, 0, 0, 0, "float32", "", "");
    private static final KernelInstance UNASSOCIATED = new KernelInstance("kernel", -1, "UNASSOCIATED_K_1",
            "unassociated_k", Direction.NA, "cuda", "k", "k(int)", 1, 20, 5, 15, 4, true, 1, 2, 3, 4, 5, 6,
            "", "", "");

    @Test
    void iterationReportWritesOneRowPerKernelLaunch() throws Exception {
        GeneratedInstances reader = GeneratedInstances.of(List.of(GeneratedInstances.conv(0), MEMCPY, UNASSOCIATED));
        String csv = Fixtures.csv(new IterationReport(reader, Layout.PYTORCH));
        String expected = """
                Iteration Report
                Iteration,Op ID,Op Name,Direction,Op Type,Kernel Name,Device ID,GPU Start Time (ns),GPU Duration (ns),API Call Start (ns),API Call Time (ns),Uses TC,Grid X,Grid Y,Grid Z,Block X,Block Y,Block Z,Data Types,Input Shapes,Parameters,Output Shapes,Long Kernel Name
                0,"CONV2D_1","/module/Net::forward/Conv2d::_call_impl/conv2d",fprop,"conv2d","implicit_convolve_sgemm",0,2835448822,21951,2835431565,17748,no,900,1,1,8,8,1,float32,"<N:32, C:3, H:32, W:32>; <K:6, C:3, R:3, S:3>; <6>","","<N:32, K:6, P:30, Q:30>","void cudnn::detail::implicit_convolve_sgemm<float, int, (int)128>(int, int)"
                -1,"UNASSOCIATED_K_1","unassociated_k",,"cuda","k",1,20,5,15,4,yes,1,2,3,4,5,6,,"","","","k(int)"
                """;
        assertEquals(expected, csv);
    }

    @Test
    void writesEveryReportInEveryFormatUnderDlprofFileNames(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("new/reports");
        GeneratedInstances reader = GeneratedInstances.of(List.of(GeneratedInstances.conv(0), GeneratedInstances.conv(1)));
        List<Finding> findings = List.of(new Finding("dlprof/amp-not-used", "dlprof", "1.0.0", Severity.WARNING,
                "precision", "1 ops were eligible to use tensor cores but none are using FP16",
                "Try enabling AMP, \"automatic mixed precision\"", Map.of(), Subject.profile(), null, null,
                "profile.sqlite", "fp", null));
        List<Path> written = DlprofReports.write(Fixtures.facts(), reader,
                DlprofReportKind.parse("all"), DlprofFormat.parse("csv,json"), out, "dlprof", findings);
        List<String> names = written.stream().map(p -> p.getFileName().toString()).toList();
        assertEquals(List.of("dlprof_summary.csv", "dlprof_summary.json", "dlprof_detailed.csv", "dlprof_detailed.json",
                "dlprof_iteration.csv", "dlprof_iteration.json", "dlprof_kernel.csv", "dlprof_kernel.json",
                "dlprof_tensor_core.csv", "dlprof_tensor_core.json", "dlprof_op_type.csv", "dlprof_op_type.json",
                "dlprof_group_op.csv", "dlprof_group_op.json", "dlprof_expert_systems.csv",
                "dlprof_expert_systems.json"), names);
        assertEquals(Set.copyOf(names), listNames(out), "no temporary files left behind");
        // the CSV written to a file is the one rendered to a stream
        assertEquals(Fixtures.csv(new DetailedReport(Fixtures.facts())),
                Files.readString(out.resolve("dlprof_detailed.csv"), StandardCharsets.UTF_8));
        for (Path p : written) {
            if (p.toString().endsWith(".json")) assertTrue(JSON.readTree(p.toFile()).isObject(), p + " is a JSON object");
        }
        JsonNode iteration = JSON.readTree(out.resolve("dlprof_iteration.json").toFile()).get("Iteration Report");
        assertEquals(2, iteration.size());
        assertEquals(2835449822L, iteration.get(1).get("GPU Start Time (ns)").asLong());
        assertEquals(4, Files.readAllLines(out.resolve("dlprof_iteration.csv")).size());
        assertEquals("""
                Expert Systems Feedback
                Problem,Recommendation
                "1 ops were eligible to use tensor cores but none are using FP16","Try enabling AMP, ""automatic mixed precision""\"
                """, Files.readString(out.resolve("dlprof_expert_systems.csv")));
    }

    @Test
    void baseNameReplacesDlprofAndSpacesBecomeUnderscores(@TempDir Path dir) throws Exception {
        List<Path> written = DlprofReports.write(Fixtures.facts(), null,
                EnumSet.of(DlprofReportKind.KERNEL), EnumSet.of(DlprofFormat.CSV), dir, "my run", null);
        assertEquals(dir.resolve("my_run_kernel.csv"), written.get(0));
        assertTrue(Files.isRegularFile(written.get(0)));
    }

    @Test
    void readerFailureLeavesNoPartialFilesAndKeepsTheOldOnes(@TempDir Path dir) throws Exception {
        Path oldCsv = dir.resolve("dlprof_iteration.csv");
        Files.writeString(oldCsv, "old report\n");
        GeneratedInstances failing = new GeneratedInstances(100, GeneratedInstances::conv, 50, -1, null);
        IOException e = assertThrows(IOException.class, () -> DlprofReports.write(
                Fixtures.facts(), failing, EnumSet.of(DlprofReportKind.ITERATION),
                EnumSet.allOf(DlprofFormat.class), dir));
        assertEquals("database disk image is malformed", e.getMessage());
        assertEquals(Set.of("dlprof_iteration.csv"), listNames(dir), "no JSON file, no temporary files");
        assertEquals("old report\n", Files.readString(oldCsv));
    }

    @Test
    void iterationRowsReachTheFileWhileTheReaderIsStillStreaming(@TempDir Path dir) throws Exception {
        AtomicLong bytesDuringStream = new AtomicLong();
        Runnable probe = () -> {
            try (Stream<Path> files = Files.list(dir)) {
                bytesDuringStream.set(files.filter(p -> p.getFileName().toString().endsWith(".tmp"))
                        .mapToLong(p -> p.toFile().length()).sum());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        int n = 50_000;
        GeneratedInstances reader = new GeneratedInstances(n, GeneratedInstances::conv, -1, n - 1, probe);
        DlprofReports.write(Fixtures.facts(), reader,
                EnumSet.of(DlprofReportKind.ITERATION), EnumSet.allOf(DlprofFormat.class), dir);
        long finalBytes = Files.size(dir.resolve("dlprof_iteration.csv")) + Files.size(dir.resolve("dlprof_iteration.json"));
        // all but the last buffers were already on disk before the reader finished
        assertTrue(bytesDuringStream.get() > finalBytes - 4 * 65536 - 1_000_000,
                "written during stream: " + bytesDuringStream.get() + " of " + finalBytes);
        try (Stream<String> lines = Files.lines(dir.resolve("dlprof_iteration.csv"))) {
            assertEquals(n + 2, lines.count());
        }
    }

    @Test
    void outputPathThatIsAFileIsAClearError(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");
        IOException e = assertThrows(IOException.class, () -> DlprofReports.write(Fixtures.facts(), null,
                EnumSet.of(DlprofReportKind.SUMMARY), EnumSet.of(DlprofFormat.CSV), file));
        assertEquals(file + ": output path exists and is not a directory", e.getMessage());
    }

    @Test
    void expertSystemsReportWithoutFindingsIsRefused(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DlprofReports.write(
                Fixtures.facts(), null, EnumSet.of(DlprofReportKind.EXPERT_SYSTEMS), EnumSet.of(DlprofFormat.CSV), dir));
        assertEquals("the expert_systems report needs the findings of a lint run", e.getMessage());
    }

    @Test
    void iterationReportWithoutReaderIsRefused(@TempDir Path dir) {
        assertThrows(IllegalArgumentException.class, () -> DlprofReports.write(Fixtures.facts(), null,
                EnumSet.of(DlprofReportKind.ITERATION), EnumSet.of(DlprofFormat.CSV), dir));
    }

    @Test
    void reportAndFormatNamesParseWithClearErrors() {
        assertEquals(EnumSet.of(DlprofReportKind.SUMMARY, DlprofReportKind.DETAIL, DlprofReportKind.GROUP_NODE),
                DlprofReportKind.parse("summary, Detail,group_node"));
        assertEquals(EnumSet.of(DlprofReportKind.TENSOR, DlprofReportKind.DETAIL, DlprofReportKind.GROUP_NODE),
                DlprofReportKind.parse("tensor_core,detailed,group_op"));
        assertEquals(EnumSet.allOf(DlprofReportKind.class), DlprofReportKind.parse("all"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DlprofReportKind.parse("summary,kernels"));
        assertEquals("unknown report 'kernels'; known reports: summary, detail, iteration, kernel, tensor, op_type, "
                + "group_node, expert_systems, all", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DlprofReportKind.parse("node_op"));
        assertTrue(e.getMessage().contains("use detail"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DlprofReportKind.parse(" , "));
        assertEquals(EnumSet.allOf(DlprofFormat.class), DlprofFormat.parse("json,CSV"));
        e = assertThrows(IllegalArgumentException.class, () -> DlprofFormat.parse("csv,xml"));
        assertEquals("unknown report format 'xml'; known formats: csv, json", e.getMessage());
    }

    private static Set<String> listNames(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toSet());
        }
    }
}
