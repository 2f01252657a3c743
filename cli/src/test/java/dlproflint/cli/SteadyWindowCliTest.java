package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.testing.Corpus;
import dlproflint.testing.TimelineVariants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23 end to end: a capture that includes its warm-up ({@code gpt_healthy_b} with a first step of 30× longer
 * kernels and 20 autotuning trials) is aggregated over its steady steps by default, and every report format says so -
 * the rule used and the step left out; {@code --iter-start 0} aggregates every step as asked. And the H200
 * {@code fp8_gemm_4k} case reports its GPU-bound steps without {@code underutilized-gpu}.
 */
class SteadyWindowCliTest {
    @TempDir
    Path dir;

    @Test
    void everyFormatSaysWhatTheSteadyWindowLeftOut() throws Exception {
        Path warm = TimelineVariants.kinetoWarmUp(Corpus.file("pytorch-h200-2026/gpt_healthy_b.pt.trace.json.gz"), dir,
                "warm-up", 30, 20);
        CliHarness.Result r = new CliHarness(dir).run(warm.toString(), "--fail-on", "none", "--no-config",
                "--report", "text=r.txt", "--report", "json=r.json", "--report", "sarif=r.sarif", "--report", "csv=r.csv",
                "--report", "markdown=r.md", "--report", "html=r.html");
        assertEquals(0, r.code(), r::toString);
        String said = "step 0 left out of the aggregation as warm-up";
        for (String f : new String[] {"r.txt", "r.sarif", "r.csv", "r.md", "r.html", "r.json"}) {
            assertTrue(Files.readString(dir.resolve(f)).contains(said), f + " says which step was left out and why");
        }
        String text = Files.readString(dir.resolve("r.txt"));
        assertTrue(text.contains("iterations 12 (aggregated 1-11"), text);
        assertTrue(text.contains("steady-window rule: leading steps over 1.5× the median"), text);
        JsonNode it = E2eFixture.JSON.readTree(dir.resolve("r.json").toFile()).path("profiles").get(0).path("metrics")
                .path("iterations");
        assertEquals("steady", it.path("window").asText());
        assertEquals(0, it.path("leftOut").get(0).asInt());
        assertEquals(1, it.path("aggregatedStart").asInt());
        JsonNode runProps = E2eFixture.JSON.readTree(dir.resolve("r.sarif").toFile()).path("runs").get(0).path("properties");
        assertEquals("steady", runProps.path("steps").path("window").asText(), runProps.toString());

        CliHarness.Result all = new CliHarness(dir).run(warm.toString(), "--fail-on", "none", "--no-config",
                "--iter-start", "0", "--report", "json");
        assertEquals(0, all.code(), all::toString);
        JsonNode asked = E2eFixture.JSON.readTree(all.out()).path("profiles").get(0).path("metrics").path("iterations");
        assertEquals(0, asked.path("aggregatedStart").asInt());
        assertEquals(11, asked.path("aggregatedStop").asInt());
        assertEquals("user", asked.path("window").asText());
        assertEquals(0, asked.path("leftOut").size());
    }

    @Test
    void fp8GemmStepsAreGpuBoundAndTheGpuIsNotUnderutilized() throws Exception {
        Path fp8 = Corpus.file("pytorch-h200-2026/fp8_gemm_4k.pt.trace.json.gz");
        CliHarness.Result r = new CliHarness(dir).run(fp8.toString(), "--fail-on", "none", "--no-config");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("steps: GPU-bound: step times from the GPU spans"), r.out());
        assertTrue(r.out().matches("(?s).*iterations 3 \\(aggregated 0-2, avg 7\\.\\d ms;.*"), "steps of ~7 ms: " + r.out());
        assertFalse(r.out().contains("underutilized-gpu"), r.out());
    }
}
