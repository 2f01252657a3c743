package dlproflint.reporters;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.findings.Evidence;
import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.findings.PackInfo;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.Severity;
import dlproflint.findings.Subject;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.KernelFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.reporters.json.JsonReporter;
import dlproflint.reporters.sarif.SarifOptions;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Facts read from real profiles of the shared corpus by the real readers (kernel names with
 * templates, {@code <}, {@code >}, {@code &}, real GPUs and metrics), with findings about their
 * actual kernels and GPUs: every format renders them and the machine-readable ones validate.
 */
class RealProfileReportsTest {
    private static final List<String> TRACES = List.of(
            "tracelens/tests/traces/torch_compile_triton/trace.json.gz",
            "tracelens/tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz");

    @TempDir
    Path repo;

    @Test
    void realProfilesRenderInEveryFormat() throws Exception {
        ProfileReaders readers = ProfileReaders.discover();
        List<ProfileResult> results = new ArrayList<>();
        for (String rel : TRACES) {
            ProfileFacts facts = readers.read(Corpus.file(rel), ReadOptions.DEFAULT);
            results.add(new ProfileResult(facts, findingsAbout(facts), List.of()));
        }
        LintRun run = new LintRun("0.1.0", List.of(new PackInfo("dlprof", "1.0.0", "test", "builtin")),
                TestRuns.rules(), results);
        Files.writeString(repo.resolve("train.py"), "pass\n");
        ReportOptions options = new ReportOptions(SarifOptions.of(repo).withAnchor(Path.of("train.py")));

        JsonNode json = Schemas.JSON.readTree(render("json", run, options));
        assertEquals(Set.of(), Schemas.errors(Schemas.load(JsonReporter.SCHEMA_RESOURCE), json));
        assertEquals(TRACES.size(), json.path("profiles").size());
        KernelFact top = topKernel(results.get(0).facts());
        assertEquals(top.name(), json.path("profiles").get(0).path("findings").get(0).path("subject").path("name").asText(),
                "real kernel names round-trip");

        JsonNode sarif = Schemas.JSON.readTree(render("sarif", run, options));
        assertEquals(Set.of(), Schemas.errors(Schemas.load("/schema/sarif-schema-2.1.0.json"), sarif));
        assertEquals(TRACES.size(), sarif.path("runs").size());
        assertFalse(sarif.path("runs").get(0).path("automationDetails").path("id").asText()
                .equals(sarif.path("runs").get(1).path("automationDetails").path("id").asText()));

        String text = new String(render("text", run, options), StandardCharsets.UTF_8);
        assertTrue(text.contains("GPU util "), text);
        String csv = new String(render("csv", run, options), StandardCharsets.UTF_8);
        assertTrue(csv.lines().count() > TRACES.size(), csv);
    }

    private static byte[] render(String format, LintRun run, ReportOptions options) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Reporters.create(format, options).render(run, out);
        return out.toByteArray();
    }

    private static KernelFact topKernel(ProfileFacts facts) {
        return facts.kernels().stream().max(Comparator.comparingLong(k -> k.gpuTime().total())).orElseThrow();
    }

    /** What rules would say about this profile, built from its real facts. */
    private static List<Finding> findingsAbout(ProfileFacts facts) {
        List<Finding> out = new ArrayList<>();
        String path = facts.profile().path();
        KernelFact k = topKernel(facts);
        out.add(TestRuns.finding("slow-kernel", Severity.ERROR, "kernels", Subject.kernel(k.name()),
                "Kernel " + k.name() + " takes " + k.gpuTime().total() + " ns over " + k.calls() + " calls.",
                "Look at its launch configuration.", Evidence.of("kernel", k.name(), "gpuNs", k.gpuTime().total(),
                        "grid", k.grid()), null, path));
        for (GpuUsage u : facts.gpuUsage()) {
            out.add(TestRuns.finding("gpu-underutilized", Severity.WARNING, "utilization", Subject.gpu(u.deviceId()),
                    "GPU " + u.deviceId() + " is busy " + u.utilizationPct() + "% of the time.", "Feed it faster.",
                    Evidence.of("utilizationPct", u.utilizationPct()), null, path));
        }
        return out;
    }
}
