package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import dlproflint.reporters.Schemas;
import dlproflint.reporters.json.JsonReporter;
import dlproflint.synth.Workload;
import dlproflint.synth.WorkloadSpec;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dlprof-lint compare BASE HEAD} end to end: generated runs of one workload with per-step noise (pass), the
 * same workload with one op made 3× slower (fail, naming the op), real corpus pairs, unrelated models, and the
 * reports.
 */
class CompareCliTest {
    @TempDir
    Path dir;

    /** A ResNet-like training loop, GPU-bound (a device sync per step), with 3% per-step jitter. */
    private Path run(String name, long seed, Map<String, Double> slowdown) throws Exception {
        Path file = dir.resolve(name);
        Workload.generate(WorkloadSpec.builder().iterations(30).opsPerIteration(24).backward(true).deviceSync(true)
                .tensorCores(true).inputBytes(1_000_000).stepJitterPct(3).seed(seed).opSlowdown(slowdown).build(), file);
        return file;
    }

    private CliHarness.Result compare(String... args) {
        List<String> all = new ArrayList<>(List.of("compare"));
        all.addAll(List.of(args));
        all.add("--no-config");
        return new CliHarness(dir).run(all.toArray(String[]::new));
    }

    private static List<String> ruleIds(JsonNode report) {
        List<String> ids = new ArrayList<>();
        for (JsonNode f : report.path("profiles").get(0).path("findings")) ids.add(f.path("ruleId").asText());
        return ids;
    }

    @Test
    void twoRunsOfTheSameWorkloadWithOrdinaryNoisePass() throws Exception {
        run("base.sqlite", 1, Map.of());
        run("head.sqlite", 2, Map.of());
        // per-step: the input copy starts every iteration
        CliHarness.Result r = compare("base.sqlite", "head.sqlite", "--key-node", "aten::to", "--report", "json");
        assertEquals(0, r.code(), r::toString);
        JsonNode c = E2eFixture.JSON.readTree(r.out()).path("profiles").get(0).path("comparison");
        assertEquals("step", c.path("basis").asText());
        assertTrue(c.path("related").asBoolean());
        JsonNode step = c.path("metrics").get(0);
        assertEquals("step-time", step.path("metric").asText());
        assertTrue(step.path("baseSamples").asInt() >= 29, step.toString());
        assertTrue(Math.abs(step.path("changePct").asDouble()) < 2, "noise moves the median by little: " + step);
        // and as single values (no key node: each profile is one interval)
        assertEquals(0, compare("base.sqlite", "head.sqlite").code());
    }

    @Test
    void oneOpMadeThreeTimesSlowerIsNamedAndFailsTheRun() throws Exception {
        run("base.sqlite", 1, Map.of());
        run("head.sqlite", 2, Map.of("linear", 3.0));
        CliHarness.Result r = compare("base.sqlite", "head.sqlite", "--key-node", "aten::to");
        assertEquals(1, r.code(), r::toString);
        assertTrue(r.out().contains("ERROR   regression/op-time"), r.out());
        assertTrue(r.out().contains("op aten::linear takes"), r.out());
        assertTrue(r.out().contains("(3.0×"), r.out());
        assertTrue(r.out().matches("(?s).*ops whose GPU time per step grew most:\n(    AddmmBackward0: [^\n]*\n)?    aten::linear: .*"),
                "the slowed op (or its backward) leads the list: " + r.out());
        CliHarness.Result json = compare("base.sqlite", "head.sqlite", "--key-node", "aten::to", "--report", "json");
        List<String> ids = ruleIds(E2eFixture.JSON.readTree(json.out()));
        assertTrue(ids.contains("regression/op-time") && ids.contains("regression/step-time"), ids.toString());
        for (JsonNode f : E2eFixture.JSON.readTree(json.out()).path("profiles").get(0).path("findings")) {
            if (f.path("ruleId").asText().equals("regression/op-time")) {
                String op = f.path("evidence").path("op").asText();
                assertTrue(op.equals("aten::linear") || op.equals("AddmmBackward0"), "only the slowed op, forward or backward: " + op);
            }
        }
    }

    /**
     * Issue 23: a loop whose host never waits for the GPU (no synchronisation, no data loading: the host runs ahead and
     * the GPU falls steps behind), its op ranges touching (as emit_nvtx's back-to-back push/pop pairs can). One op's
     * kernels 3× slower is named, and only it: GPU work belongs to the op and step that launched it, whenever it ran.
     */
    @Test
    void oneOpSlowerWhileTheHostRunsAheadIsNamedAndOnlyIt() throws Exception {
        Path base = dir.resolve("ahead-base.sqlite");
        Path head = dir.resolve("ahead-head.sqlite");
        WorkloadSpec.Builder spec = WorkloadSpec.builder().iterations(20).opsPerIteration(24).backward(true).deviceSync(false)
                .tensorCores(true).stepJitterPct(3).stepMarkers(WorkloadSpec.StepMarkers.PROFILER_STEP_TEXT);
        Workload.generate(spec.seed(1).build(), base);
        Workload.generate(spec.seed(2).opSlowdown(Map.of("linear", 3.0)).build(), head);
        for (Path p : List.of(base, head)) {
            assertTrue(dlproflint.testing.TimelineVariants.touchSiblingRanges(p) > 100, "ranges made to touch");
        }
        dlproflint.facts.ProfileFacts facts = dlproflint.extract.ProfileReaders.discover().read(head,
                dlproflint.extract.ReadOptions.DEFAULT);
        dlproflint.facts.Iteration last = facts.iterations().get(facts.iterations().size() - 1);
        assertEquals(dlproflint.facts.IterationSummary.GPU_BOUND, facts.iterationSummary().binding(), "the GPU bound the loop");
        assertTrue(last.gpuStartNs() > last.endNs(), "the host ran ahead: the last step's GPU work starts after its CPU range");
        CliHarness.Result json = compare("ahead-base.sqlite", "ahead-head.sqlite", "--report", "json");
        assertEquals(1, json.code(), json::toString);
        List<String> ops = new ArrayList<>();
        for (JsonNode f : E2eFixture.JSON.readTree(json.out()).path("profiles").get(0).path("findings")) {
            if (f.path("ruleId").asText().equals("regression/op-time")) ops.add(f.path("evidence").path("op").asText());
        }
        assertTrue(ops.contains("aten::linear"), "the slowed op is named: " + ops);
        assertTrue(ops.stream().allMatch(op -> op.equals("aten::linear") || op.equals("AddmmBackward0")),
                "only the slowed op, forward or backward: " + ops);
    }

    @Test
    void reportsInEveryFormat() throws Exception {
        run("base.sqlite", 1, Map.of());
        run("head.sqlite", 2, Map.of("linear", 3.0));
        Files.createDirectories(dir.resolve(".git"));
        Files.writeString(dir.resolve("train.py"), "print()\n");
        CliHarness.Result r = compare("base.sqlite", "head.sqlite", "--key-node", "aten::to", "--report", "json=c.json",
                "--report", "sarif=c.sarif", "--report", "html=c.html", "--sarif-anchor", "train.py");
        assertEquals(1, r.code(), r::toString);
        JsonNode json = Schemas.JSON.readTree(Files.readAllBytes(dir.resolve("c.json")));
        JsonSchema schema = Schemas.load(JsonReporter.SCHEMA_RESOURCE);
        assertEquals(Set.of(), Schemas.errors(schema, json), "the JSON report schema, comparison included");
        JsonNode sarif = Schemas.JSON.readTree(Files.readAllBytes(dir.resolve("c.sarif")));
        assertEquals(Set.of(), Schemas.errors(Schemas.load("/schema/sarif-schema-2.1.0.json"), sarif));
        JsonNode rules = sarif.path("runs").get(0).path("tool").path("driver").path("rules");
        assertTrue(rules.size() >= 10 && rules.get(0).path("id").asText().startsWith("regression/"), rules.toString());
        String html = Files.readString(dir.resolve("c.html"));
        assertTrue(html.contains("Compared with the base run"), "the comparison view");
        assertTrue(html.contains("id=\"p1-t-cmp-ops\"") && html.contains(">aten::linear</td>"), "the op table's first page");
    }

    @Test
    void aProfileComparedWithItselfHasNoChange() throws Exception {
        Path t = Corpus.file("kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
        CliHarness.Result r = compare(t.toString(), t.toString(), "--report", "json");
        assertEquals(0, r.code(), r::toString);
        for (JsonNode m : E2eFixture.JSON.readTree(r.out()).path("profiles").get(0).path("comparison").path("metrics")) {
            assertEquals(0.0, m.path("change").asDouble(), m.toString());
        }
    }

    /** HTA's trace-diff pair: one recommendation model on 8×A100 (TF32) and on 2×V100 (no tensor cores). */
    @Test
    void realPairOnDifferentGpusShowsThePrecisionChange() throws Exception {
        Path control = Corpus.file("hta/tests/data/trace_diff/control/control.json.gz");
        Path test = Corpus.file("hta/tests/data/trace_diff/test/test.json.gz");
        CliHarness.Result r = compare(control.toString(), test.toString(), "--report", "json", "--fail-on", "warning");
        assertEquals(1, r.code(), r::toString);
        JsonNode report = E2eFixture.JSON.readTree(r.out());
        List<String> ids = ruleIds(report);
        assertTrue(ids.contains("regression/tensor-core-share"), ids.toString());
        JsonNode c = report.path("profiles").get(0).path("comparison");
        assertTrue(c.path("related").asBoolean(), "the same model: " + c.path("overlapPct"));
        boolean tcKernelVanished = false;
        for (JsonNode k : c.path("kernels")) tcKernelVanished |= k.path("vanished").asBoolean() && k.path("baseTensorCores").asBoolean();
        assertTrue(tcKernelVanished, "a TF32 kernel of the A100 run has no counterpart on the V100");
    }

    @Test
    void htaTraceCompareFixturesDoNotRegress() throws Exception {
        CliHarness.Result r = compare(Corpus.file("hta/tests/data/trace_compare/base/base.json.gz").toString(),
                Corpus.file("hta/tests/data/trace_compare/test/test.json.gz").toString());
        assertEquals(0, r.code(), r::toString);
    }

    @Test
    void profilesOfDifferentModelsAreSaidToBeUnrelatedNotRegressed() throws Exception {
        Path resnet = Corpus.file("kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
        Path bert = Corpus.file("tracelens/tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz");
        CliHarness.Result r = compare(resnet.toString(), bert.toString(), "--report", "json");
        assertEquals(1, r.code(), r::toString);
        assertEquals(List.of("regression/unrelated-profiles"), ruleIds(E2eFixture.JSON.readTree(r.out())),
                "one finding saying so, no invented regressions");
        CliHarness.Result text = compare(resnet.toString(), bert.toString());
        assertTrue(text.out().contains("NOT runs of the same model"), text.out());
    }

    @Test
    void theSameRunInTwoFormatsIsRelated() throws Exception {
        Path nsys = Corpus.file("mohanadodema-dlprof/root/nsys_profile.sqlite");
        Path db = Corpus.file("mohanadodema-dlprof/root/dlprof_dldb.sqlite");
        CliHarness.Result r = compare(db.toString(), nsys.toString(), "--report", "json");
        JsonNode c = E2eFixture.JSON.readTree(r.out()).path("profiles").get(0).path("comparison");
        assertTrue(c.path("related").asBoolean(), c.toString());
        assertEquals("dlprof-db", c.path("baseFormat").asText());
    }

    @Test
    void usageAndInputErrors() throws Exception {
        run("base.sqlite", 1, Map.of());
        assertEquals(2, compare("base.sqlite").code(), "HEAD missing");
        assertEquals(3, compare("base.sqlite", "missing.sqlite").code());
        Files.createDirectories(dir.resolve("runs"));
        CliHarness.Result folder = compare("base.sqlite", "runs");
        assertEquals(3, folder.code(), folder::toString);
        assertTrue(folder.err().contains("runs: is a directory, not a profile"), folder.err());
    }
}
