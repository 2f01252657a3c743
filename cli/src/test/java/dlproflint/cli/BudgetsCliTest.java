package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code budgets:} end to end: a broken budget fails the run in every format; a missing metric warns; bad ones exit 2. */
class BudgetsCliTest {
    /** ResNet-50, num_workers=4: 6 steps of 181 ms, GPU busy 55.5% (kernels launched before the capture left out), no tensor-core kernels, no memory records. */
    private static final String TRACE = "kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_4/worker0.pt.trace.json.gz";

    @TempDir
    Path dir;
    CliHarness cli;
    Path profile;

    @BeforeEach
    void setUp() throws IOException {
        Files.createDirectories(dir.resolve(".git"));
        Files.writeString(dir.resolve("train.py"), "pass\n");
        cli = new CliHarness(dir);
        profile = Corpus.file(TRACE);
    }

    private CliHarness.Result lint(String config) throws IOException {
        Files.writeString(dir.resolve(".dlprof-lint.yml"), config);
        return cli.run(profile.toString(), "--report", "json=b.json", "--report", "sarif=b.sarif", "--report", "csv=b.csv",
                "--report", "text=b.txt", "--sarif-anchor", "train.py");
    }

    private JsonNode finding(String rule) throws IOException {
        for (JsonNode f : E2eFixture.json(dir.resolve("b.json")).path("profiles").get(0).path("findings")) {
            if (f.path("ruleId").asText().equals(rule)) return f;
        }
        return null;
    }

    @Test
    void aBrokenBudgetIsAnErrorInEveryFormat() throws IOException {
        CliHarness.Result r = lint("""
                budgets:
                  step-time: {max: 150}
                  gpu-utilization: {min: 50}
                """);
        assertEquals(1, r.code(), r::toString);
        JsonNode f = finding("budget/step-time");
        assertEquals("error", f.path("severity").asText());
        assertEquals("metric:step-time", f.path("subject").path("ref").asText());
        assertTrue(f.path("problem").asText().startsWith("mean step time 181.1 ms is above its budget (≤ 150.0 ms, .dlprof-lint.yml:2) by 31.1 ms"),
                f.path("problem").asText());
        assertTrue(f.path("impact").isNull(), "a budget is an assertion, not a cost");
        assertEquals(null, finding("budget/gpu-utilization"), "55.5% is within the budget");
        assertTrue(Files.readString(dir.resolve("b.txt")).contains("ERROR   budget/step-time (budget)"));
        assertTrue(Files.readString(dir.resolve("b.csv")).contains(",budget/step-time,error,budget,"));
        JsonNode sarif = E2eFixture.json(dir.resolve("b.sarif")).path("runs").get(0);
        boolean found = false;
        for (JsonNode x : sarif.path("results")) {
            if (x.path("ruleId").asText().equals("budget/step-time")) {
                found = true;
                assertEquals("error", x.path("level").asText());
            }
        }
        assertTrue(found, "the budget result is in the SARIF log");
        boolean described = false;
        for (JsonNode rule : sarif.path("tool").path("driver").path("rules")) {
            described |= rule.path("id").asText().equals("budget/step-time");
        }
        assertTrue(described, "its rule descriptor too");
    }

    @Test
    void budgetsWithinBoundsPass() throws IOException {
        CliHarness.Result r = lint("""
                budgets:
                  step-time: {max: 200}
                  step-time-p90: {max: 250}
                  gpu-utilization: {min: 50}
                  dataloader-share: {max: 5}
                """);
        assertEquals(0, r.code(), r::toString);
        assertEquals(null, finding("budget/step-time"));
        assertEquals(null, finding("budget/metric-unavailable"));
    }

    @Test
    void aBudgetOnAMetricTheProfileLacksWarnsInsteadOfPassing() throws IOException {
        CliHarness.Result r = lint("""
                budgets:
                  peak-memory-share: {max: 90}
                  host-sync-share: {max: 2}
                """);
        assertEquals(0, r.code(), "a warning does not fail the default --fail-on error: " + r);
        int unavailable = 0;
        for (JsonNode f : E2eFixture.json(dir.resolve("b.json")).path("profiles").get(0).path("findings")) {
            if (f.path("ruleId").asText().equals("budget/metric-unavailable")) {
                unavailable++;
                assertEquals("warning", f.path("severity").asText());
            }
        }
        assertEquals(2, unavailable, "one per budget that could not be checked");
        assertTrue(Files.readString(dir.resolve("b.txt")).contains("could not be checked: the profile does not record the GPU memory in use"));
        r = lint("""
                budgets:
                  peak-memory-share: {max: 90}
                rules:
                  severity:
                    budget/metric-unavailable: error
                """);
        assertEquals(1, r.code(), "pinned to error, an unchecked budget fails the build: " + r);
    }

    @Test
    void malformedBudgetsExit2NamingKeyAndLine() throws IOException {
        CliHarness.Result r = lint("""
                sarif:
                  anchor: train.py
                budgets:
                  step-time: {max: 150}
                  gpu-utilisation: {min: 50}
                """);
        assertEquals(2, r.code(), r::toString);
        assertEquals(1, r.errLines().length, r::toString);
        assertTrue(r.err().startsWith("dlprof-lint: ") && r.err().contains(".dlprof-lint.yml:5: 'budgets.gpu-utilisation': unknown metric 'gpu-utilisation'"), r.err());
        r = lint("""
                budgets:
                  step-time: {max: fast}
                """);
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().contains(".dlprof-lint.yml:2: 'budgets.step-time.max': wrong type: expected a number"), r.err());
        r = lint("""
                budgets:
                  step-time: {min: 300, max: 150}
                """);
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().contains(".dlprof-lint.yml:2: 'budgets.step-time': budget on step-time: min (300.0 ms) is above max (150.0 ms)"), r.err());
        assertTrue(!Files.exists(dir.resolve("b.json")), "configuration errors stop the run before any report is written");
    }

    @Test
    void budgetsNeedTheBudgetPack() throws IOException {
        CliHarness.Result r = lint("""
                packs:
                  budget: false
                budgets:
                  step-time: {max: 150}
                """);
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().contains("'budgets' need the built-in 'budget' pack"), r.err());
    }
}
