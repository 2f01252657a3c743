package dlproflint.cli;

import dlproflint.cli.config.Suppression;
import dlproflint.findings.Finding;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.Severity;
import dlproflint.findings.Subject;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FindingFilterTest {
    static final ProfileFacts FACTS = ProfileFacts.builder()
            .profile(new ProfileInfo("run.sqlite", "nsys-sqlite", null, null, 0, 10)).build();
    static final LocalDate TODAY = LocalDate.of(2026, 11, 22);

    static Finding finding(String rule, Severity sev, Subject subject) {
        return new Finding(rule, "dlprof", "1.0.0", sev, "c", "problem", "fix", Map.of(), subject, null, null,
                "run.sqlite", rule + "|" + subject.ref(), null);
    }

    final Finding conv = finding("dlprof/amp-not-used", Severity.WARNING, Subject.op("CONV2D_1", "conv1"));
    final Finding emb = finding("dlprof/small-batch-size", Severity.NOTE, Subject.op("EMB_1", "aten::embedding"));
    final Finding gpu = finding("dlprof/underutilized-gpu", Severity.ERROR, Subject.gpu(0));

    @Test
    void sortsMostSevereFirstThenByRuleAndSubject() {
        ProfileResult r = new FindingFilter(List.of(), null, TODAY).apply(FACTS, List.of(emb, conv, gpu));
        assertEquals(List.of(gpu, conv, emb), r.findings());
        assertTrue(r.suppressed().isEmpty());
    }

    @Test
    void suppressionGlobsMatchRuleAndSubjectRef() {
        Suppression s = new Suppression("dlprof/*", "op:EMB_*", "small by design", null);
        ProfileResult r = new FindingFilter(List.of(s), null, TODAY).apply(FACTS, List.of(emb, conv, gpu));
        assertEquals(List.of(gpu, conv), r.findings());
        assertEquals(List.of(emb), r.suppressed());
    }

    @Test
    void suppressionAppliesThroughItsExpiryDayOnly() {
        Suppression s = new Suppression("dlprof/amp-not-used", "*", "later", TODAY);
        assertEquals(List.of(conv), new FindingFilter(List.of(s), null, TODAY).apply(FACTS, List.of(conv)).suppressed());
        assertEquals(List.of(conv), new FindingFilter(List.of(s), null, TODAY.plusDays(1)).apply(FACTS, List.of(conv)).findings());
    }

    @Test
    void baselineRoundTripThroughAFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("base.json");
        Baseline.of("0.1.0", List.of(conv, gpu)).write(file);
        String text = Files.readString(file);
        Baseline again = Baseline.read(file);
        assertEquals(2, again.findings().size());
        ProfileResult r = new FindingFilter(List.of(), again, TODAY).apply(FACTS, List.of(emb, conv, gpu));
        assertEquals(List.of(emb), r.findings());
        assertEquals(2, r.suppressed().size());
        // Rewriting an unchanged baseline gives the same bytes (reviewable diffs).
        Baseline.of("0.1.0", List.of(gpu, conv)).write(file);
        assertEquals(text, Files.readString(file));
        assertFalse(text.contains("problem"), "no measurements or messages in a baseline");
    }
}
