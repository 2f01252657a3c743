package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.reporters.Schemas;
import dlproflint.synth.KinetoJobGenerator;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dlprof-lint job} end to end on jobs generated from a real rank's trace (HTA's sampled 128-rank recsys job,
 * NCCL all-to-all and all-reduce): the straggler acceptance (64 ranks, one slow rank named and no other; none
 * without it), and the bad inputs (ranks of another job, duplicate ranks, an unreadable rank, different step
 * counts, nothing readable). JSON and SARIF of the job are valid against their schemas.
 */
class JobCommandTest {
    private static final String TEMPLATE = "hta/tests/data/trace_filter/sampled_rank-0.json.gz";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static Path straggler;
    static Path healthy;

    @BeforeAll
    static void generate() throws IOException {
        Path template = Corpus.file(TEMPLATE);
        straggler = dir.resolve("straggler");
        healthy = dir.resolve("healthy");
        KinetoJobGenerator.write(template, straggler, KinetoJobGenerator.Spec.of(64).withStraggler(17, 20));
        KinetoJobGenerator.write(template, healthy, KinetoJobGenerator.Spec.of(64));
    }

    /** The ranks {@code distributed/straggler-rank} names in a job's JSON report ({@code rank:17}). */
    static List<String> stragglers(JsonNode report) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : report.path("profiles").get(0).path("findings")) {
            if (f.path("ruleId").asText().equals("distributed/straggler-rank")) out.add(f.path("subject").path("ref").asText());
        }
        return out;
    }

    @Test
    void theStragglerIsNamedAndNoOtherRank() throws Exception {
        Files.writeString(dir.resolve("train.py"), "# the training script SARIF results point to\n");
        CliHarness.Result r = new CliHarness(dir).run("job", "straggler/", "--report", "json=s.json", "--report", "sarif=s.sarif",
                "--sarif-anchor", "train.py", "--no-config", "--fail-on", "warning");
        assertEquals(1, r.code(), "the straggler is a warning at least, so --fail-on warning fails the job: " + r);
        JsonNode report = JSON.readTree(dir.resolve("s.json").toFile());
        assertEquals(List.of("rank:17"), stragglers(report), "exactly the injected straggler");
        JsonNode job = report.path("job");
        assertEquals(64, job.path("ranksRead").asInt());
        assertEquals("distributedInfo", job.path("rankSource").asText());
        assertEquals(17, job.path("ranks").get(17).path("rank").asInt());
        assertEquals(job.path("alignedSteps").asInt(), job.path("ranks").get(17).path("lastArrivals").asInt(),
                "rank 17 arrived last in every aligned step");
        assertEquals(Set.of(), Schemas.errors(Schemas.load("/dlproflint/reporters/json/report.schema.json"), report));
        assertEquals(Set.of(), Schemas.errors(Schemas.load("/schema/sarif-schema-2.1.0.json"), JSON.readTree(dir.resolve("s.sarif").toFile())));
        assertTrue(r.err().contains("dlprof-lint: read 64 profiles in ") && r.err().contains(" ms per rank, "), r.err());
        assertTrue(r.err().contains(" in a job of 64 ranks"), r.err());
    }

    @Test
    void withoutTheStragglerThereIsNoStragglerFinding() throws Exception {
        CliHarness.Result r = new CliHarness(dir).run("job", "healthy/", "--report", "json=h.json", "--no-config", "--fail-on", "none");
        assertEquals(0, r.code(), r.toString());
        assertEquals(List.of(), stragglers(JSON.readTree(dir.resolve("h.json").toFile())));
    }

    /** A job of 8 ranks of the template in a fresh folder. */
    private static Path smallJob(String name, KinetoJobGenerator.Spec spec) throws IOException {
        Path d = dir.resolve(name);
        KinetoJobGenerator.write(Corpus.file(TEMPLATE), d, spec);
        return d;
    }

    private static JsonNode inputs(JsonNode report) {
        return report.path("job").path("inputs");
    }

    @Test
    void ranksOfAnotherJobAreLeftOutAndNamed() throws Exception {
        smallJob("mixed/a", KinetoJobGenerator.Spec.of(8));
        smallJob("mixed/b", KinetoJobGenerator.Spec.of(4).withSteps(2));
        CliHarness.Result r = new CliHarness(dir).run("job", "mixed/a", "mixed/b/rank-0.json", "mixed/b/rank-1.json",
                "--report", "json=m.json", "--no-config", "--fail-on", "none");
        assertEquals(0, r.code(), r.toString());
        JsonNode report = JSON.readTree(dir.resolve("m.json").toFile());
        assertEquals(8, report.path("job").path("ranksRead").asInt());
        JsonNode left = inputs(report).get(9);
        assertEquals("mixed/b/rank-1.json", left.path("profile").asText());
        assertEquals("other-job", left.path("status").asText());
        assertTrue(left.path("note").asText().contains("world size 4, but 8 of 10 readable profiles say 8"), left.toString());
    }

    @Test
    void aDuplicateRankIsLeftOutAndTheFirstGivenKept() throws Exception {
        Path d = smallJob("dup", KinetoJobGenerator.Spec.of(4));
        Files.copy(d.resolve("rank-3.json"), d.resolve("zz-copy-of-3.json"));
        CliHarness.Result r = new CliHarness(dir).run("job", "dup/", "--report", "json=d.json", "--no-config", "--fail-on", "none");
        assertEquals(0, r.code(), r.toString());
        JsonNode in = inputs(JSON.readTree(dir.resolve("d.json").toFile()));
        assertEquals("used", in.get(3).path("status").asText());
        assertEquals("duplicate", in.get(4).path("status").asText());
        assertEquals("rank 3 (by distributedInfo) is already covered by dup/rank-3.json, given earlier; that one is kept",
                in.get(4).path("note").asText());
    }

    @Test
    void anUnreadableRankIsNamedAndTheJobReportedWithoutIt() throws Exception {
        Path d = smallJob("broken", KinetoJobGenerator.Spec.of(4));
        Files.writeString(d.resolve("rank-2.json"), "{\"traceEvents\": [ {\"ph\": ");
        CliHarness.Result r = new CliHarness(dir).run("job", "broken/", "--report", "json=b.json", "--no-config", "--fail-on", "none");
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.err().lines().anyMatch(l -> l.startsWith("dlprof-lint: broken/rank-2.json: ")), r.err());
        JsonNode report = JSON.readTree(dir.resolve("b.json").toFile());
        assertEquals("unreadable", inputs(report).get(2).path("status").asText());
        assertEquals("2", report.path("job").path("missingRanks").asText());
        boolean missing = false;
        for (JsonNode f : report.path("profiles").get(0).path("findings")) {
            missing |= f.path("ruleId").asText().equals("distributed/missing-ranks");
        }
        assertTrue(missing, "the unreadable rank is missing from the job");
    }

    @Test
    void ranksWithDifferentStepCountsAreAlignedOnTheStepsTheyShare() throws Exception {
        Path d = smallJob("steps", KinetoJobGenerator.Spec.of(4).withSteps(3));
        Path shorter = smallJob("steps-short", KinetoJobGenerator.Spec.of(4).withSteps(2));
        Files.copy(shorter.resolve("rank-2.json"), d.resolve("rank-2.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        CliHarness.Result r = new CliHarness(dir).run("job", "steps/", "--report", "json=st.json", "--no-config", "--fail-on", "none");
        assertEquals(0, r.code(), r.toString());
        JsonNode job = JSON.readTree(dir.resolve("st.json").toFile()).path("job");
        assertEquals(2, job.path("alignedSteps").asInt());
        assertTrue(job.path("notes").toString().contains("rank 0 has 3 (551-553)"), job.path("notes").toString());
    }

    @Test
    void nothingReadableExitsThree() throws Exception {
        Path d = Files.createDirectories(dir.resolve("garbage"));
        Files.writeString(d.resolve("rank-0.json"), "not a trace");
        Files.writeString(d.resolve("rank-1.json"), "{}");
        CliHarness.Result r = new CliHarness(dir).run("job", "garbage/", "--no-config", "--fail-on", "none");
        assertEquals(3, r.code(), r.toString());
        assertTrue(r.err().contains("garbage/rank-0.json: ") && r.err().contains("garbage/rank-1.json: "), r.err());
        assertTrue(r.err().contains("no profile of the job could be read (2 given)"), r.err());
    }

    /**
     * The corpus's real set of ranks of one job: HTA's two sampled ranks of a 128-rank NCCL recsys job. Ranks and
     * world size come from their {@code distributedInfo}; the 126 ranks not given are missing; the collectives of
     * both are classified (counted independently in {@code MultiRankCorpusTest}: per rank 2 all-to-all, 2
     * all-reduce and 1 all-gather per profiled step).
     */
    @Test
    void theRealRanksOfOneJobInTheCorpus() throws Exception {
        Path ranks = Corpus.file("hta/tests/data/trace_filter/sampled_rank-0.json.gz").getParent();
        CliHarness.Result r = new CliHarness(dir).run("job", ranks.toString(), "--report", "json=real.json", "--no-config", "--fail-on", "none");
        assertEquals(0, r.code(), r.toString());
        JsonNode report = JSON.readTree(dir.resolve("real.json").toFile());
        JsonNode job = report.path("job");
        assertEquals(128, job.path("worldSize").asInt());
        assertEquals("distributedInfo", job.path("rankSource").asText());
        assertEquals("nccl", job.path("backend").asText());
        assertEquals(2, job.path("ranksRead").asInt());
        assertEquals("2-127", job.path("missingRanks").asText());
        assertEquals(List.of(0, 1), job.path("ranks").findValuesAsText("rank").stream().map(Integer::parseInt).toList());
        assertEquals(2, job.path("alignedSteps").asInt());
        List<String> kinds = new ArrayList<>();
        for (JsonNode c : job.path("collectives")) {
            kinds.add(c.path("kind").asText() + "=" + c.path("callsPerStep").asDouble() + "@" + c.path("ranks").asInt());
        }
        assertEquals(List.of("all-reduce=2.0@2", "all-gather=1.0@2", "all-to-all=2.0@2"), kinds);
        List<String> rules = report.path("profiles").get(0).path("findings").findValuesAsText("ruleId");
        assertTrue(rules.contains("distributed/missing-ranks"), rules.toString());
        assertTrue(!rules.contains("distributed/straggler-rank"), "two ranks each last in one of two steps: " + rules);
    }

    @Test
    void globsAndFoldersNameTheSameProfilesInNaturalOrder() throws Exception {
        smallJob("globbed", KinetoJobGenerator.Spec.of(12).withSteps(1));
        CliEnv env = new CliEnv(System.out, System.err, dir, java.util.Map.of(), false, java.time.LocalDate::now);
        List<String> byGlob = JobInputs.expand(env, List.of("globbed/rank-*.json"));
        List<String> byFolder = JobInputs.expand(env, List.of("globbed"));
        assertEquals(byGlob, byFolder);
        assertEquals("globbed/rank-2.json", byGlob.get(2), "rank-2 before rank-10");
        assertEquals(12, byGlob.size());
        CliHarness.Result none = new CliHarness(dir).run("job", "globbed/nothing-*.json", "--no-config", "--fail-on", "none");
        assertEquals(3, none.code(), none.toString());
        assertTrue(none.err().contains("globbed/nothing-*.json: no file matches"), none.err());
    }
}
