package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dlproflint.synth.KinetoJobGenerator;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dlprof-lint job} on a job whose collectives run on the host: the real 4-rank DDP job over Gloo of
 * {@code pytorch-h200-2026/job_straggler_rank1} (rank 1 sleeps 60 ms before each step; {@code labels.yaml}:
 * {@code straggler: 1}), and variants made from it: the same files with ranks 1 and 3 relabelled, and jobs generated
 * from rank 1's own trace (its collectives are nearly pure transfer) with rank 3 20% slower, and with no slow rank.
 */
class GlooJobTest {
    private static final String JOB = "pytorch-h200-2026/job_straggler_rank1";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static Path real;

    @BeforeAll
    static void locate() {
        real = Corpus.file(JOB + "/rank0.pt.trace.json.gz").getParent();
    }

    private static JsonNode job(String report, String... inputs) throws Exception {
        List<String> args = new ArrayList<>(List.of("job"));
        args.addAll(List.of(inputs));
        args.addAll(List.of("--report", "json=" + report, "--no-config", "--fail-on", "none"));
        CliHarness.Result r = new CliHarness(dir).run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.toString());
        return JSON.readTree(dir.resolve(report).toFile());
    }

    private static List<String> stragglers(JsonNode report) {
        return JobCommandTest.stragglers(report);
    }

    private static JsonNode finding(JsonNode report, String rule) {
        for (JsonNode f : report.path("profiles").get(0).path("findings")) {
            if (f.path("ruleId").asText().equals(rule)) return f;
        }
        return null;
    }

    @Test
    void theRealGlooJobNamesRankOne() throws Exception {
        List<String> files = new ArrayList<>();
        for (int r = 0; r < 4; r++) files.add(real.resolve("rank" + r + ".pt.trace.json.gz").toString());
        JsonNode report = job("real.json", files.toArray(String[]::new));
        assertEquals(List.of("rank:1"), stragglers(report), "labels.yaml: straggler 1");
        JsonNode job = report.path("job");
        assertEquals("gloo", job.path("backend").asText());
        assertTrue(job.path("collectivesSeen").asBoolean());
        List<String> kinds = new ArrayList<>();
        for (JsonNode c : job.path("collectives")) kinds.add(c.path("kind").asText() + (c.path("host").asBoolean() ? " (host)" : ""));
        assertEquals(List.of("all-reduce (host)", "broadcast (host)"), kinds);
        JsonNode rank1 = job.path("ranks").get(1);
        assertEquals(4, rank1.path("lastArrivals").asInt(), "last at the collectives in every step");
        // the other ranks wait for rank 1's 60 ms sleep in DDP's buffer broadcast at the start of forward
        double othersWait = job.path("spread").path("waitNs").path("median").asDouble();
        assertTrue(othersWait > 50e6 && othersWait < 70e6, "median wait " + othersWait);
        double gap = finding(report, "distributed/straggler-rank").path("evidence").path("gapNs").asDouble();
        assertTrue(gap > 50e6 && gap < 65e6, "rank 1 reaches its collectives about 60 ms after the median rank: " + gap);
        assertEquals("host", finding(report, "distributed/straggler-rank").path("evidence").path("cause").asText(),
                "it sleeps on the host: its GPU idles while the others wait in the broadcast");
    }

    /** The slow process is the file labelled rank 1; relabelled rank 3 (and rank 3 as 1), the straggler is rank 3. */
    @Test
    void relabelledRanksNameTheSlowProcessByItsNewRank() throws Exception {
        Path d = Files.createDirectories(dir.resolve("relabelled"));
        for (int r = 0; r < 4; r++) {
            int label = r == 1 ? 3 : r == 3 ? 1 : r;
            relabel(real.resolve("rank" + r + ".pt.trace.json.gz"), d.resolve("p" + r + ".json.gz"), label);
        }
        assertEquals(List.of("rank:3"), stragglers(job("relabelled.json", "relabelled/")));
    }

    @Test
    void anotherRankDelayedIsNamedAndNoOther() throws Exception {
        Path d = dir.resolve("slow3");
        KinetoJobGenerator.write(real.resolve("rank1.pt.trace.json.gz"), d,
                KinetoJobGenerator.Spec.of(4).withStraggler(3, 20).gzipped(true));
        JsonNode report = job("slow3.json", "slow3/");
        assertEquals(List.of("rank:3"), stragglers(report));
        assertEquals(4, report.path("job").path("ranks").get(3).path("lastArrivals").asInt());
    }

    @Test
    void noDelayNoStraggler() throws Exception {
        Path d = dir.resolve("even");
        KinetoJobGenerator.write(real.resolve("rank1.pt.trace.json.gz"), d, KinetoJobGenerator.Spec.of(4).gzipped(true));
        JsonNode report = job("even.json", "even/");
        assertEquals(List.of(), stragglers(report));
        assertTrue(report.path("job").path("collectivesSeen").asBoolean(), "the collectives were measured, and nobody is late");
        double wait = report.path("job").path("spread").path("waitNs").path("median").asDouble();
        double step = report.path("job").path("spread").path("stepNs").path("median").asDouble();
        assertTrue(wait < 0.02 * step, "jitter only: " + wait + " of " + step);
    }

    private static void relabel(Path from, Path to, int rank) throws IOException {
        JsonNode root;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(from))) {
            root = JSON.readTree(in);
        }
        ((ObjectNode) root.path("distributedInfo")).put("rank", rank);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(to))) {
            JSON.writeValue(out, root);
        }
    }
}
