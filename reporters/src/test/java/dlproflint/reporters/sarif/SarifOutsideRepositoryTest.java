package dlproflint.reporters.sarif;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.findings.LintRun;
import dlproflint.reporters.ReportException;
import dlproflint.reporters.Schemas;
import dlproflint.reporters.TestRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SARIF written outside a git checkout (a laptop, a scratch folder): nothing goes to code scanning there, so a result
 * without a source line points at the profile wherever it lies, relative to the working directory, and the run's
 * {@code originalUriBaseIds} says which folder {@code %SRCROOT%} was. The log stays schema-valid. In a checkout the
 * rule is GitHub's: a result outside it fails the report.
 */
class SarifOutsideRepositoryTest {
    @TempDir
    Path tmp;

    @Test
    void resultsPointAtTheProfileRelativeToTheWorkingDirectory() throws Exception {
        Path cwd = Files.createDirectories(tmp.resolve("work"));
        Path profile = Files.createDirectories(tmp.resolve("data")).resolve("run.sqlite");
        Files.writeString(profile, "x");
        LintRun run = TestRuns.single(profile.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new SarifReporter(new SarifOptions(cwd, null, false)).render(run, out);
        JsonNode log = Schemas.JSON.readTree(out.toByteArray());
        assertEquals(Set.of(), Schemas.errors(Schemas.load("/schema/sarif-schema-2.1.0.json"), log), "schema-valid");
        JsonNode sarifRun = log.path("runs").path(0);
        assertEquals(cwd.toRealPath().toUri().toString(), sarifRun.path("originalUriBaseIds").path("%SRCROOT%").path("uri").asText());
        boolean sawProfile = false;
        for (JsonNode r : sarifRun.path("results")) {
            JsonNode loc = r.path("locations").path(0).path("physicalLocation").path("artifactLocation");
            assertEquals("%SRCROOT%", loc.path("uriBaseId").asText());
            String uri = loc.path("uri").asText();
            assertTrue(uri.equals("../data/run.sqlite") || uri.equals("models/resnet.py"), uri);
            sawProfile |= uri.equals("../data/run.sqlite");
        }
        assertTrue(sawProfile, "findings without a source line point at the profile");
    }

    @Test
    void inACheckoutAResultOutsideItStillFailsTheReport() throws Exception {
        Path cwd = Files.createDirectories(tmp.resolve("repo"));
        Path profile = tmp.resolve("run.sqlite");
        Files.writeString(profile, "x");
        ReportException e = assertThrows(ReportException.class,
                () -> new SarifReporter(new SarifOptions(cwd, null, true)).render(TestRuns.single(profile.toString()),
                        new ByteArrayOutputStream()));
        assertTrue(e.getMessage().contains("cannot place finding"), e.getMessage());
        assertFalse(new SarifOptions(cwd, null).withAnchor(null).repository() == false, "the two-argument form is a checkout");
    }
}
