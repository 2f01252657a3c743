package dlproflint.reporters.csv;

import dlproflint.findings.Evidence;
import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.Severity;
import dlproflint.findings.Subject;
import dlproflint.reporters.TestRuns;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExpertSystemsCsvReporterTest {
    private static String render(LintRun run) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new ExpertSystemsCsvReporter().render(run, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * The findings DLProf reported for this profile, rendered by us, are byte-identical to DLProf's own
     * file: same header lines, same quoting, same line ends. The rows are parsed out of the real file,
     * so the test cannot agree with itself.
     */
    @Test
    void reproducesDlprofFileByteForByte() throws IOException {
        String expected = Files.readString(Corpus.file("mohanadodema-dlprof/w_Relu/dlprof_expert_systems.csv"));
        List<List<String>> rows = Rfc4180.parse(expected);
        assertEquals(List.of("Expert Systems Feedback"), rows.get(0));
        assertEquals(List.of("Problem", "Recommendation"), rows.get(1));
        // Rule ids chosen so our order (severity, then rule id) is DLProf's order.
        List<String> ids = List.of("amp-not-used", "gpu-underutilized", "no-dali", "no-iterations");
        List<Finding> findings = new ArrayList<>();
        for (int i = 2; i < rows.size(); i++) {
            findings.add(TestRuns.finding(ids.get(i - 2), Severity.WARNING, "dlprof", Subject.profile(),
                    rows.get(i).get(0), rows.get(i).get(1), Evidence.of(), null, "nsys_profile.sqlite"));
        }
        assertEquals(4, findings.size());
        LintRun run = new LintRun("0.1.0", List.of(), TestRuns.rules(),
                List.of(new ProfileResult(TestRuns.facts("nsys_profile.sqlite"), findings, List.of())));
        assertEquals(expected, render(run));
    }

    @Test
    void quotesAreDoubledAndFormulasNeutralised() throws IOException {
        Finding f = TestRuns.finding("amp-not-used", Severity.WARNING, "precision", Subject.profile(),
                "Op \"conv\", slow", "=cmd()", Evidence.of(), null, "p.sqlite");
        LintRun run = new LintRun("0.1.0", List.of(), TestRuns.rules(),
                List.of(new ProfileResult(TestRuns.facts("p.sqlite"), List.of(f), List.of())));
        assertEquals("Expert Systems Feedback\nProblem,Recommendation\n\"Op \"\"conv\"\", slow\",\"'=cmd()\"\n", render(run));
    }

    @Test
    void severalProfilesNameTheirRows() throws IOException {
        LintRun run = new LintRun("0.1.0", List.of(), TestRuns.rules(),
                List.of(TestRuns.result("/r0/rank0.sqlite"), TestRuns.result("/r1/rank1.sqlite")));
        List<List<String>> rows = Rfc4180.parse(render(run));
        assertEquals(2 + 6, rows.size());
        assertTrue(rows.get(2).get(0).startsWith("[rank0] The GPU is underutilized"), rows.get(2).toString());
        assertTrue(rows.get(5).get(0).startsWith("[rank1] "), rows.get(5).toString());
    }
}
