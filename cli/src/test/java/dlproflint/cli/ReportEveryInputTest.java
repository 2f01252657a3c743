package dlproflint.cli;

import dlproflint.testing.Corpus;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dlprof-lint report --reports all} end to end through the CLI on one real profile of each input
 * format: exit 0, every DLProf report in both formats, and an iteration report with one row per kernel
 * launch the reader streams (none for a DLProf database that kept no kernel rows).
 */
class ReportEveryInputTest {
    @TempDir
    Path dir;

    /** profile | iteration rows expected (-1: at least one) */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
        mohanadodema-dlprof/w_Relu/nsys_profile.sqlite | 59
        mohanadodema-dlprof/w_Relu/dlprof_dldb_1.sqlite | 59
        dlprof-kakack-dlprofer/dlprofviewer/dlproftool/dlprof_dldb.sqlite | 0
        hta/tests/data/nccl_parser_config/nccl_data.json.gz | -1
        kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_0/worker0.pt.trace.json.gz | -1
        """)
    void reportsAllExitsZeroForEveryFormat(String relative, int iterationRows) throws IOException {
        Path profile = Corpus.file(relative);
        CliHarness.Result r = new CliHarness(dir).run("report", profile.toString(), "--reports", "all",
                "--formats", "csv,json", "--output-path", "out", "--no-config");
        assertEquals(0, r.code(), r::toString);
        List<String> names;
        try (Stream<Path> s = Files.list(dir.resolve("out"))) {
            names = s.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertEquals(16, names.size(), names::toString);
        List<String> iteration = Files.readAllLines(dir.resolve("out/dlprof_iteration.csv"));
        assertEquals("Iteration Report", iteration.get(0));
        long rows = iteration.stream().skip(2).filter(l -> l.matches("^\\d+,.*")).count();
        if (iterationRows >= 0) assertEquals(iterationRows, rows, relative);
        else assertTrue(rows > 0, relative + ": no launches in the iteration report");
    }
}
