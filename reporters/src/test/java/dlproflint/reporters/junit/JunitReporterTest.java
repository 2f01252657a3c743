package dlproflint.reporters.junit;

import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.Severity;
import dlproflint.reporters.Reporters;
import dlproflint.reporters.ReportOptions;
import dlproflint.reporters.TestRuns;
import dlproflint.reporters.sarif.SarifOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --report junit}: valid against the JUnit XML schema ({@code src/test/resources/junit/junit.xsd}), one test
 * case per rule in every profile's suite, one failure per finding at or above {@code --fail-on}, the others kept as
 * output of a passing test, counts that add up, and hostile names as text.
 */
class JunitReporterTest {
    @TempDir
    Path repo;

    static Schema schema() throws SAXException {
        SchemaFactory f = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        return f.newSchema(new StreamSource(JunitReporterTest.class.getResourceAsStream("/junit/junit.xsd")));
    }

    /** Validates {@code xml} against the schema (throws naming the first error) and parses it. */
    static Document valid(byte[] xml) throws Exception {
        schema().newValidator().validate(new StreamSource(new ByteArrayInputStream(xml)));
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(xml));
    }

    private static byte[] render(LintRun run, Severity failOn, SarifOptions locations) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Reporters.create("junit", new ReportOptions(dlproflint.reporters.text.TextStyle.PLAIN, locations, failOn)).render(run, out);
        return out.toByteArray();
    }

    private static Element testcase(Document d, String suite, String rule) {
        NodeList suites = d.getElementsByTagName("testsuite");
        for (int i = 0; i < suites.getLength(); i++) {
            Element s = (Element) suites.item(i);
            if (!s.getAttribute("name").equals(suite)) continue;
            NodeList cases = s.getElementsByTagName("testcase");
            for (int j = 0; j < cases.getLength(); j++) {
                Element c = (Element) cases.item(j);
                if (c.getAttribute("name").equals(rule)) return c;
            }
        }
        throw new AssertionError("no test case " + rule + " in suite " + suite);
    }

    @Test
    void aTestCasePerRuleAndAFailurePerFindingAtOrAboveFailOn() throws Exception {
        Files.writeString(repo.resolve("train.py"), "pass\n");
        LintRun run = TestRuns.withMessageIds(TestRuns.single(repo.resolve("run.sqlite").toString()));
        Document d = valid(render(run, Severity.WARNING, new SarifOptions(repo, Path.of("train.py"))));
        Element root = d.getDocumentElement();
        assertEquals("testsuites", root.getTagName());
        assertEquals(1, d.getElementsByTagName("testsuite").getLength());
        assertEquals(String.valueOf(TestRuns.rules().size()), root.getAttribute("tests"), "every rule is a test");
        assertEquals("2", root.getAttribute("failures"), "the error and the warning fail at --fail-on warning");
        Element err = testcase(d, "run", "dlprof/gpu-underutilized");
        assertEquals("dlprof-lint.dlprof", err.getAttribute("classname"));
        Element failure = (Element) err.getElementsByTagName("failure").item(0);
        assertEquals("low-utilization", failure.getAttribute("type"), "the failure's type is its message id");
        assertTrue(failure.getTextContent().startsWith("Severity: error\n"), failure.getTextContent());
        assertTrue(failure.getAttribute("message").startsWith("The GPU is underutilized"), failure.getAttribute("message"));
        assertTrue(failure.getTextContent().contains("Where: train.py:1"), failure.getTextContent());
        assertTrue(failure.getTextContent().contains("Help: https://"), failure.getTextContent());
        Element note = testcase(d, "run", "dlprof/slow-kernel");
        assertEquals(0, note.getElementsByTagName("failure").getLength(), "a note passes at --fail-on warning");
        assertTrue(note.getElementsByTagName("system-out").item(0).getTextContent().contains("below --fail-on"));
        // hostile text is text: the kernel name survives as characters, its control characters made visible
        assertTrue(note.getTextContent().contains("<script>alert(\"x\")</script>"), note.getTextContent());
        assertTrue(note.getTextContent().contains("\\x1B[31m"), note.getTextContent());
    }

    @Test
    void failOnDecidesWhatFailsAndSuitesAddUp() throws Exception {
        ProfileResult a = TestRuns.result("rank0/run.sqlite");
        ProfileResult b = TestRuns.result("rank1/run.sqlite");
        LintRun two = new LintRun("0.1.0", List.of(), TestRuns.rules(), List.of(a, b));
        for (Severity failOn : new Severity[] {Severity.ERROR, Severity.NOTE, null}) {
            Document d = valid(render(two, failOn, null));
            long expected = 0;
            for (ProfileResult r : two.results()) {
                for (Finding f : r.findings()) if (failOn != null && f.severity().atLeast(failOn)) expected++;
            }
            assertEquals(String.valueOf(expected), d.getDocumentElement().getAttribute("failures"), "fail-on " + failOn);
            assertEquals(expected, d.getElementsByTagName("failure").getLength());
            assertEquals(2, d.getElementsByTagName("testsuite").getLength(), "one suite per profile");
            assertEquals(String.valueOf(2 * TestRuns.rules().size()), d.getDocumentElement().getAttribute("tests"));
        }
    }

    @Test
    void theSchemaRefusesWhatConsumersWouldNot() {
        String bad = "<testsuites><testsuite name=\"x\" tests=\"-1\"><testcase/></testsuite></testsuites>";
        assertThrows(SAXException.class, () -> valid(bad.getBytes()), "negative counts and a nameless test case");
        assertFalse(bad.isEmpty());
    }
}
