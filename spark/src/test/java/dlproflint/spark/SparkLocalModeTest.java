package dlproflint.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.cli.CliEnv;
import dlproflint.cli.Main;
import dlproflint.synth.KinetoJobGenerator;
import dlproflint.testing.Corpus;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Spark application in local mode (two task threads, each rank a map task) gives the same JSON report as
 * {@code dlprof-lint job} on the same 8 generated ranks with a straggler and an unreadable rank file, and on the
 * corpus's real 4-rank Gloo job (host-side collectives, rank 1 the straggler); one Spark session, to keep the build
 * short (Spark starts in a few seconds).
 */
class SparkLocalModeTest {
    @TempDir
    Path dir;

    private CliEnv env(ByteArrayOutputStream err) {
        return new CliEnv(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), dir, Map.of(), false, LocalDate::now);
    }

    @Test
    void sparkAndTheCommandWriteTheSameReport() throws Exception {
        Path job = dir.resolve("job");
        KinetoJobGenerator.write(Corpus.file("hta/tests/data/trace_filter/sampled_rank-0.json.gz"), job,
                KinetoJobGenerator.Spec.of(8).withStraggler(5, 25));
        java.nio.file.Files.writeString(job.resolve("rank-9.json"), "{\"traceEvents\": [");

        ByteArrayOutputStream localErr = new ByteArrayOutputStream();
        int local = Main.run(env(localErr), "job", "job/", "--report", "json=local.json", "--no-config");
        // the real Gloo job of the corpus: its collectives run on the host (labels.yaml: straggler 1)
        String gloo = Corpus.file("pytorch-h200-2026/job_straggler_rank1/rank0.pt.trace.json.gz").getParent().toString();
        int glooLocal = Main.run(env(new ByteArrayOutputStream()), "job", gloo, "--report", "json=gloo-local.json", "--no-config");

        ByteArrayOutputStream sparkErr = new ByteArrayOutputStream();
        SparkSession spark = SparkSession.builder().master("local[2]").appName("dlprof-lint test")
                .config("spark.ui.enabled", "false").getOrCreate();
        int onSpark;
        int glooOnSpark;
        try {
            onSpark = SparkJobMain.run(env(sparkErr), spark, "job/", "--report", "json=spark.json", "--no-config");
            glooOnSpark = SparkJobMain.run(env(new ByteArrayOutputStream()), spark, gloo, "--report", "json=gloo-spark.json",
                    "--no-config");
        } finally {
            spark.stop();
        }
        assertEquals(local, onSpark, "exit codes\n--- local\n" + localErr + "\n--- spark\n" + sparkErr);
        ObjectMapper json = new ObjectMapper();
        JsonNode a = json.readTree(dir.resolve("local.json").toFile());
        JsonNode b = json.readTree(dir.resolve("spark.json").toFile());
        assertEquals(a, b, "the same report from Spark as from the command");
        assertTrue(a.path("profiles").get(0).path("findings").toString().contains("\"ref\":\"rank:5\""), "the straggler is named");
        assertTrue(sparkErr.toString(StandardCharsets.UTF_8).contains("job/rank-9.json: "), "the unreadable rank is named: " + sparkErr);
        assertTrue(sparkErr.toString(StandardCharsets.UTF_8).contains("read 9 profiles in"), sparkErr.toString());
        assertEquals(glooLocal, glooOnSpark);
        JsonNode g = json.readTree(dir.resolve("gloo-local.json").toFile());
        assertEquals(g, json.readTree(dir.resolve("gloo-spark.json").toFile()), "the Gloo job: the same report from Spark");
        assertTrue(g.path("profiles").get(0).path("findings").toString().contains("\"ref\":\"rank:1\""), "rank 1 is named");
    }
}
