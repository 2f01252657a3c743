package dlproflint.reporters.github;

import dlproflint.findings.Finding;
import dlproflint.findings.FindingOrder;
import dlproflint.findings.LintRun;
import dlproflint.reporters.Reporters;
import dlproflint.reporters.ReportOptions;
import dlproflint.reporters.TestRuns;
import dlproflint.reporters.sarif.SarifOptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --report github}: one workflow command per finding, in the report order, parsed back here the way the
 * Actions runner reads them (a line starting with {@code ::}, properties up to the next {@code ::}, then the
 * message, each unescaped).
 */
class GithubReporterTest {
    /** What the runner reads: {@code ::command prop=v,prop=v::message}. */
    private static final Pattern COMMAND = Pattern.compile("^::(error|warning|notice)(?: ([^:]*))?::(.*)$");

    @TempDir
    Path repo;

    @BeforeEach
    void files() throws IOException {
        TestRuns.sourceTree(repo);
    }

    private static String render(LintRun run, SarifOptions options) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Reporters.create("github", new ReportOptions(options)).render(run, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String unescape(String s) {
        return s.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",").replace("%25", "%");
    }

    @Test
    void oneAnnotationPerFindingWithItsLevelPlaceAndText() throws IOException {
        LintRun run = TestRuns.single("/elsewhere/profiles/run.sqlite");
        String text = render(run, new SarifOptions(repo, null));
        String[] lines = text.split("\n");
        List<Finding> expected = FindingOrder.sorted(run.results().get(0).findings());
        assertEquals(expected.size(), lines.length, text);
        for (int i = 0; i < lines.length; i++) {
            Finding f = expected.get(i);
            Matcher m = COMMAND.matcher(lines[i]);
            assertTrue(m.matches(), lines[i]);
            assertEquals(switch (f.severity()) {
                case ERROR -> "error";
                case WARNING -> "warning";
                case NOTE -> "notice";
            }, m.group(1));
            String props = m.group(2);
            if (f.location() != null) {
                assertTrue(props.startsWith("file=models/resnet.py,line=42,"), "the Python line: " + props);
            } else {
                assertFalse(props.contains("file="), "no place known (no anchor, profile outside the repository): " + props);
            }
            assertTrue(props.endsWith("title=dlprof-lint%3A " + f.ruleId()), props);
            String message = unescape(m.group(3));
            // profile text with its control characters made visible (SafeText), as in every text report
            assertTrue(message.startsWith(dlproflint.reporters.SafeText.escape(f.problem(), "\t\n")), message);
            assertTrue(message.contains(f.recommendation()), message);
            assertTrue(message.endsWith(f.helpUri()), message);
        }
        assertTrue(lines[0].startsWith("::error "), "most severe first");
    }

    @Test
    void theAnchorPlacesFindingsWithoutASourceLine() throws IOException {
        LintRun run = TestRuns.single(repo.resolve("profiles/run.sqlite").toString());
        String text = render(run, new SarifOptions(repo, Path.of("train.py")));
        for (String line : text.split("\n")) {
            assertTrue(line.contains(" file=models/resnet.py,line=42,") || line.contains(" file=train.py,line=1,"), line);
        }
    }

    @Test
    void aHostileNameCannotEndItsLineOrStartACommand() throws IOException {
        LintRun run = TestRuns.single(repo.resolve("run.sqlite").toString());
        String text = render(run, new SarifOptions(repo, null));
        // the hostile kernel name carries ESC, NUL, BEL and a tab; a name with a newline and '::' is checked below
        assertFalse(text.chars().anyMatch(c -> c < 0x20 && c != '\n' && c != '\t'), "no control character but line ends and tabs");
        assertEquals(FindingOrder.sorted(run.results().get(0).findings()).size(), text.split("\n").length, "one line each");
        String forged = GithubReporter.data("kernel\n::error::forged\r%0A");
        assertFalse(forged.contains("\n") || forged.contains("\r"), forged);
        assertEquals("kernel%0A::error::forged%0D%250A", forged);
        assertEquals("a%3Ab%2Cc%25", GithubReporter.property("a:b,c%"));
    }
}
