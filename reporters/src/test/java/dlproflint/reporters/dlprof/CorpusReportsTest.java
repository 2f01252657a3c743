package dlproflint.reporters.dlprof;

import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReader;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.KernelFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every DLProf report of other real profiles (nsys exports of 2021 to 2025, PyTorch profiler traces, DLProf
 * databases with and without kernel rows),
 * through whichever reader accepts them: the files are written, parse back with DLProf's sections
 * and headers, their JSON twins parse, and the row counts agree with the facts (one detailed row per
 * op, one kernel row per compute kernel and op, one iteration row per kernel launch streamed).
 */
class CorpusReportsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(strings = {
            "mohanadodema-dlprof/root/nsys_profile.sqlite",
            "dynamicvit-dlprof-empty/nsys_profile.sqlite",
            "cuda-perf-sandbox-nsys2025/report1.sqlite",
            "uvmtorch-nsys2025/report1.sqlite",
            "llama3-inference-nsys2024/real_inference_simulation.sqlite",
            "kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_0/worker0.pt.trace.json.gz",
            "hta/tests/data/nccl_parser_config/nccl_data.json.gz",
            "mohanadodema-dlprof/w_Relu/dlprof_dldb_1.sqlite",
            "dlprof-kakack-dlprofer/dlprofviewer/dlproftool/dlprof_dldb.sqlite"})
    void reportsOfRealProfilesHaveDlprofsShape(String relative, @TempDir Path out) throws Exception {
        Path profile = Corpus.file(relative);
        ProfileReaders readers = ProfileReaders.discover();
        ProfileReader reader;
        try {
            reader = readers.readerFor(profile);
        } catch (ProfileException e) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) throw e;
            System.err.println("NOTICE: skipping " + relative + ": no reader on the class path (" + e.getMessage() + ")");
            Assumptions.abort(e.getMessage());
            return;
        }
        ProfileFacts facts = reader.read(profile, ReadOptions.DEFAULT);
        Set<DlprofReportKind> kinds = EnumSet.complementOf(EnumSet.of(DlprofReportKind.EXPERT_SYSTEMS,
                DlprofReportKind.ITERATION));
        List<Path> written = new java.util.ArrayList<>(DlprofReports.write(facts, null,
                kinds, EnumSet.allOf(DlprofFormat.class), out));
        // every reader streams its launches (a DLProf database without kernel rows streams none)
        written.addAll(DlprofReports.write(facts, reader.instances(profile, ReadOptions.DEFAULT),
                EnumSet.of(DlprofReportKind.ITERATION), EnumSet.allOf(DlprofFormat.class), out));
        kinds.add(DlprofReportKind.ITERATION);
        assertEquals(kinds.size() * 2, written.size());
        Layout layout = Layout.of(facts);
        for (Path p : written) {
            if (p.toString().endsWith(".json")) {
                assertTrue(JSON.readTree(p.toFile()).isObject(), p.toString());
                continue;
            }
            for (DlprofCsv.Section s : DlprofCsv.read(p)) {
                if (s.title().equals("System Config") || s.title().equals("Summary Report") || s.title().equals("Iterations")) {
                    assertTrue(!s.rows().isEmpty(), s.title());
                    continue;
                }
                List<String> header = DlprofCsvFidelityTest.columnsFor(s.title(), layout).stream().map(Column::header).toList();
                assertEquals(header, s.header(), p.getFileName() + " " + s.title());
                for (List<String> row : s.body()) assertEquals(header.size(), row.size(), p.getFileName() + " row " + row);
            }
        }
        assertEquals(facts.ops().size(), DlprofCsv.byTitle(out.resolve("dlprof_detailed.csv")).get(DetailedReport.TITLE).body().size());
        Set<String> kernelKeys = new HashSet<>();
        for (KernelFact k : facts.kernels()) {
            if (!Labels.isMemoryOperation(k.name())) kernelKeys.add(k.opId() + "\u0000" + k.name());
        }
        assertEquals(kernelKeys.size(), DlprofCsv.byTitle(out.resolve("dlprof_kernel.csv")).get(KernelReport.TITLE).body().size());
        {
            long kernelCalls = facts.kernels().stream().filter(k -> !Labels.isMemoryOperation(k.name()))
                    .mapToLong(KernelFact::calls).sum();
            Map<String, DlprofCsv.Section> it = DlprofCsv.byTitle(out.resolve("dlprof_iteration.csv"));
            assertEquals(kernelCalls, it.get(IterationReport.TITLE).body().size(),
                    "one iteration row per kernel launch counted in the facts");
        }
    }

}
