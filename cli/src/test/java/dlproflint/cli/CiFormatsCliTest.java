package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.reporters.Schemas;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CI formats and report behaviour through the command, on the bundled example profile: {@code --report github}
 * and {@code --report junit} (valid against the JUnit schema), the text report kept on the terminal when the reports
 * go to files ({@code --quiet} drops it), SARIF outside a git checkout, and a failing report that leaves every
 * other report as it was.
 */
class CiFormatsCliTest {
    @TempDir
    Path tmp;
    Path work;
    Path profile;
    CliHarness cli;

    @BeforeEach
    void setUp() throws IOException {
        // no .git anywhere above: a scratch folder, the profile in another one
        work = Files.createDirectories(tmp.resolve("work"));
        profile = Files.createDirectories(tmp.resolve("data")).resolve("run.sqlite");
        Files.copy(Corpus.repoRoot().resolve("examples/resnet-like-fp32.sqlite"), profile);
        cli = new CliHarness(work);
    }

    @Test
    void githubAnnotationsGoToStdout() {
        CliHarness.Result r = cli.run(profile.toString(), "--report", "github");
        assertEquals(1, r.code(), r::toString);
        String[] lines = r.out().split("\n");
        assertTrue(lines.length >= 5, r::toString);
        for (String l : lines) assertTrue(l.matches("::(error|warning|notice) (file=[^,]+,line=\\d+,)?title=dlprof-lint%3A [a-z0-9/-]+::.+"), l);
        assertTrue(r.out().startsWith("::error "), "most severe first");
        assertEquals(8, lines.length, "one annotation per finding");
    }

    @Test
    void junitIsValidAndFailsOnWhatFailOnFails() throws Exception {
        CliHarness.Result r = cli.run(profile.toString(), "--report", "junit=junit.xml", "--fail-on", "warning", "--quiet");
        assertEquals(1, r.code(), r::toString);
        Path xml = work.resolve("junit.xml");
        SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI)
                .newSchema(new StreamSource(getClass().getResourceAsStream("/junit/junit.xsd")))
                .newValidator().validate(new StreamSource(xml.toFile()));
        String text = Files.readString(xml);
        long failures = text.lines().filter(l -> l.trim().startsWith("<failure ")).count();
        assertEquals(3, failures, "2 errors and 1 warning fail at --fail-on warning; the notes pass");
        assertTrue(text.contains("<testcase classname=\"dlprof-lint.dlprof\" name=\"dlprof/amp-not-used\""), text);
        assertTrue(text.contains("<property name=\"fail-on\" value=\"warning\"/>"), text);
    }

    @Test
    void theTextReportStaysOnTheTerminalUnlessQuiet() {
        CliHarness.Result r = cli.run(profile.toString(), "--report", "json=r.json");
        assertEquals(1, r.code(), r::toString);
        assertTrue(r.out().contains("2 errors, 1 warning, 5 notes"), "the text report on stdout: " + r);
        assertTrue(r.err().contains("dlprof-lint: 8 findings in 1 profile"), r::toString);
        CliHarness.Result quiet = cli.run(profile.toString(), "--report", "json=r.json", "--quiet");
        assertEquals("", quiet.out(), quiet::toString);
        assertTrue(quiet.err().contains("dlprof-lint: 8 findings in 1 profile"), quiet::toString);
        CliHarness.Result piped = cli.run(profile.toString(), "--report", "json");
        assertTrue(piped.out().startsWith("{"), "a report on stdout is the only thing there: " + piped.out().substring(0, 20));
    }

    @Test
    void sarifOutsideAGitCheckoutIsWrittenAndValid() throws Exception {
        // the README's line, in a folder that is no repository, with the profile outside it
        CliHarness.Result r = cli.run(profile.toString(), "--report", "html=report.html", "--report", "sarif=dlprof-lint.sarif");
        assertEquals(1, r.code(), r::toString);
        assertTrue(Files.isRegularFile(work.resolve("report.html")));
        JsonNode log = Schemas.JSON.readTree(work.resolve("dlprof-lint.sarif").toFile());
        assertEquals(Set.of(), Schemas.errors(Schemas.load("/schema/sarif-schema-2.1.0.json"), log));
        JsonNode run = log.path("runs").path(0);
        assertTrue(run.path("originalUriBaseIds").path("%SRCROOT%").path("uri").asText().startsWith("file:/"), run.toString());
        for (JsonNode res : run.path("results")) {
            assertEquals("../data/run.sqlite", res.path("locations").path(0).path("physicalLocation").path("artifactLocation")
                    .path("uri").asText());
        }
    }

    @Test
    void aFailingReportLeavesTheOthersAsTheyWere() throws IOException {
        Files.writeString(work.resolve("report.html"), "OLD");
        CliHarness.Result r = cli.run(profile.toString(), "--report", "html=report.html",
                "--report", "test-fails-half-way=half.json", "--report", "markdown=summary.md");
        assertEquals(2, r.code(), r::toString);
        assertEquals("OLD", Files.readString(work.resolve("report.html")), "rendered, but not put in place");
        assertFalse(Files.exists(work.resolve("summary.md")), "rendered first, written never");
        assertFalse(Files.exists(work.resolve("half.json")));
        try (Stream<Path> left = Files.list(work)) {
            assertEquals(Set.of("report.html"), Set.copyOf(left.map(p -> p.getFileName().toString()).toList()),
                    "no temporary file left");
        }
    }
}
