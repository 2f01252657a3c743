package dlproflint.reporters.codequality;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.FindingOrder;
import dlproflint.reporters.ReportException;
import dlproflint.reporters.Schemas;
import dlproflint.reporters.TestRuns;
import dlproflint.reporters.io.AtomicFiles;
import dlproflint.reporters.sarif.SarifOptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CodeQualityReporterTest {
    static final JsonSchema GITLAB = Schemas.load("/codequality/gitlab-codequality.schema.json");

    @TempDir
    Path repo;

    @BeforeEach
    void files() throws IOException {
        TestRuns.sourceTree(repo);
    }

    private JsonNode render(LintRun run, SarifOptions options) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new CodeQualityReporter(options).render(run, out);
        return Schemas.JSON.readTree(out.toByteArray());
    }

    @Test
    void oneValidIssuePerFindingPlacedLikeSarif() throws IOException {
        LintRun run = TestRuns.single(repo.resolve("profiles/run.sqlite").toString());
        JsonNode doc = render(run, new SarifOptions(repo, Path.of("train.py")));
        assertEquals(Set.of(), Schemas.errors(GITLAB, doc), doc::toPrettyString);
        List<Finding> expected = FindingOrder.sorted(run.results().get(0).findings());
        assertEquals(expected.size(), doc.size());
        for (int i = 0; i < expected.size(); i++) {
            Finding f = expected.get(i);
            JsonNode issue = doc.get(i);
            assertEquals(f.ruleId(), issue.path("check_name").asText());
            assertEquals(f.problem(), issue.path("description").asText());
            assertEquals(switch (f.severity()) {
                case ERROR -> "critical";
                case WARNING -> "major";
                case NOTE -> "info";
            }, issue.path("severity").asText());
            boolean stack = f.location() != null;
            assertEquals(stack ? "models/resnet.py" : "train.py", issue.path("location").path("path").asText());
            assertEquals(stack ? 42 : 1, issue.path("location").path("lines").path("begin").asInt());
        }
    }

    @Test
    void fingerprintsAreUniquePerProfileAndIgnoreMeasurements() throws IOException {
        SarifOptions options = new SarifOptions(repo, Path.of("train.py"));
        ProfileResult rank0 = TestRuns.result("rank0/run.sqlite");
        ProfileResult rank1 = TestRuns.result("rank1/run.sqlite");
        LintRun two = new LintRun("0.1.0", List.of(), TestRuns.rules(), List.of(rank0, rank1));
        JsonNode doc = render(two, options);
        assertEquals(Set.of(), Schemas.errors(GITLAB, doc));
        Set<String> fingerprints = new HashSet<>();
        for (JsonNode issue : doc) {
            assertTrue(fingerprints.add(issue.path("fingerprint").asText()), "GitLab shows one issue per fingerprint: " + issue);
            assertTrue(issue.path("description").asText().matches(".* \\[(rank0|rank1)-run]"), "profile named: " + issue);
        }
        assertEquals(6, fingerprints.size());

        // the same finding with other numbers keeps its fingerprint (it is the same problem, re-measured)
        Finding f = rank0.findings().get(2);
        Finding remeasured = new Finding(f.ruleId(), f.packId(), f.packVersion(), f.severity(), f.category(),
                "The GPU is underutilized: only 12.5% of the profiled time is spent on GPU kernels", f.recommendation(),
                f.evidence(), f.subject(), f.location(), f.helpUri(), f.profilePath(), f.fingerprint(), null);
        JsonNode before = render(new LintRun("0.1.0", List.of(), List.of(), List.of(new ProfileResult(rank0.facts(), List.of(f), List.of()))), options);
        JsonNode after = render(new LintRun("0.1.0", List.of(), List.of(), List.of(new ProfileResult(rank0.facts(), List.of(remeasured), List.of()))), options);
        assertEquals(before.get(0).path("fingerprint"), after.get(0).path("fingerprint"));
    }

    @Test
    void hostileStringsAreCarriedExactly() throws IOException {
        LintRun run = TestRuns.single(repo.resolve("run.sqlite").toString());
        JsonNode doc = render(run, new SarifOptions(repo, null));
        assertEquals(Set.of(), Schemas.errors(GITLAB, doc));
        String description = doc.get(2).path("description").asText();
        assertTrue(description.contains(TestRuns.HOSTILE_KERNEL), description);
        assertEquals("run.sqlite", doc.get(0).path("location").path("path").asText(), "no anchor: the profile in the repository");
    }

    @Test
    void unplaceableFindingFailsAndLeavesNoFile() {
        Path target = repo.resolve("gl-code-quality-report.json");
        ReportException e = assertThrows(ReportException.class, () -> AtomicFiles.write(target,
                out -> new CodeQualityReporter(SarifOptions.of(repo)).render(TestRuns.single("/elsewhere/p.sqlite"), out)));
        assertTrue(e.getMessage().contains("in the repository for the Code Quality report"), e.getMessage());
        assertFalse(Files.exists(target));
    }
}
