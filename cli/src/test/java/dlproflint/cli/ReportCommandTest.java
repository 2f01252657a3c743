package dlproflint.cli;

import dlproflint.testing.Corpus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code dlprof-lint report}: DLProf-format files written through the real writers. */
class ReportCommandTest {
    @TempDir
    Path dir;
    CliHarness cli;

    @BeforeEach
    void setUp() throws IOException {
        new E2eFixture(dir);
        cli = new CliHarness(dir);
    }

    private List<String> files(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void writesTheChosenReportsInEveryFormatIntoANewFolder() throws IOException {
        CliHarness.Result r = cli.run("report", "trace.json", "--reports", "summary,kernel", "--formats", "csv,json",
                "--output-path", "out/dlprof");
        assertEquals(0, r.code(), r::toString);
        assertEquals(List.of("dlprof_kernel.csv", "dlprof_kernel.json", "dlprof_summary.csv", "dlprof_summary.json"),
                files(dir.resolve("out/dlprof")));
        String kernels = Files.readString(dir.resolve("out/dlprof/dlprof_kernel.csv"));
        assertTrue(kernels.contains("volta_sgemm_128x64_nn"), kernels);
    }

    @Test
    void realExportGivesAllReportsAndTheExpertSystemsVerdict() throws IOException {
        Path profile = Corpus.file("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite");
        CliHarness.Result r = cli.run("report", profile.toString(), "--reports", "all",
                "--output-path", "out", "--base-name", "w relu", "--no-config");
        assertEquals(0, r.code(), r::toString);
        List<String> names = files(dir.resolve("out"));
        assertEquals(8, names.size(), names::toString);
        assertTrue(names.contains("w_relu_summary.csv") && names.contains("w_relu_detailed.csv")
                && names.contains("w_relu_iteration.csv") && names.contains("w_relu_expert_systems.csv"), names::toString);
        String expert = Files.readString(dir.resolve("out/w_relu_expert_systems.csv"));
        assertTrue(expert.startsWith("Expert Systems Feedback"), expert);
        // one row per finding that 'lint' reports for the same profile with the same packs
        CliHarness.Result lint = cli.run(profile.toString(), "--no-config", "--report", "json=lint.json", "--fail-on", "none");
        assertEquals(0, lint.code(), lint::toString);
        int findings = E2eFixture.severities(E2eFixture.json(dir.resolve("lint.json"))).size();
        assertEquals(2 + findings, expert.lines().count(), expert);
    }

    @Test
    void outputPathThatIsAFileIsAUsageError() throws IOException {
        Files.writeString(dir.resolve("taken"), "x");
        CliHarness.Result r = cli.run("report", "trace.json", "--output-path", "taken");
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().contains("--output-path is not a folder"), r::toString);
    }

    @Test
    void unknownFormatIsAUsageError() {
        CliHarness.Result r = cli.run("report", "trace.json", "--formats", "xlsx");
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().contains("unknown report format 'xlsx'"), r::toString);
    }

    @Test
    void notAProfileExits3AndWritesNothing() throws IOException {
        Files.writeString(dir.resolve("notes.txt"), "x\n");
        CliHarness.Result r = cli.run("report", "notes.txt", "--output-path", "out");
        assertEquals(3, r.code(), r::toString);
        assertEquals(1, r.errLines().length, r::toString);
        assertTrue(!Files.exists(dir.resolve("out")) || files(dir.resolve("out")).isEmpty());
    }

    /** One lint pipeline: what a suppression or the baseline hides is hidden from lint and report outputs alike. */
    @Test
    void suppressionsAndTheBaselineApplyIdenticallyInLintAndReportOutputs() throws IOException {
        Path profile = Corpus.file("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite");
        // w_Relu's findings: amp-not-used, no-iterations, underutilized-gpu (see CorpusFindingsTest)
        Files.writeString(dir.resolve("cfg.yml"), """
                suppressions:
                  - {rule: dlprof/underutilized-gpu, subject: "*", reason: "accepted: the model is a toy"}
                """);
        CliHarness.Result base = cli.run("baseline", profile.toString(), "--config", "cfg.yml", "--output", "base.json",
                "--enable", "dlprof/no-iterations");
        assertEquals(0, base.code(), base::toString);
        CliHarness.Result lint = cli.run(profile.toString(), "--config", "cfg.yml", "--baseline", "base.json", "--fail-on", "none",
                "--report", "json=lint.json", "--report", "expert-systems-csv=lint-expert.csv");
        assertEquals(0, lint.code(), lint::toString);
        CliHarness.Result report = cli.run("report", profile.toString(), "--config", "cfg.yml", "--baseline", "base.json",
                "--reports", "expert_systems", "--output-path", "out");
        assertEquals(0, report.code(), report::toString);
        String viaReport = Files.readString(dir.resolve("out/dlprof_expert_systems.csv"));
        assertEquals(Files.readString(dir.resolve("lint-expert.csv")), viaReport, "one writer, one pipeline");
        assertTrue(viaReport.contains("tensor cores"), viaReport);
        assertTrue(!viaReport.contains("GPU utilization") && !viaReport.contains("Unable to split"), viaReport);
        String lintJson = Files.readString(dir.resolve("lint.json"));
        assertTrue(lintJson.contains("\"dlprof/amp-not-used\"") && !lintJson.contains("\"ruleId\" : \"dlprof/underutilized-gpu\"")
                && !lintJson.contains("\"ruleId\" : \"dlprof/no-iterations\""), lintJson);
    }
}
