package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command on real nsys exports from the shared corpus, and on SQLite files that are not nsys exports. */
class CorpusProfilesTest {
    @TempDir
    Path dir;
    CliHarness cli;

    @BeforeEach
    void setUp() throws IOException {
        new E2eFixture(dir);
        cli = new CliHarness(dir);
    }

    @Test
    void lintsARealNsysExportWithoutTouchingIt() throws Exception {
        Path profile = Corpus.file("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite");
        String before = sha256(profile);
        CliHarness.Result r = cli.run(profile.toString(), "--rules", "site-pack", "--report", "json=out.json",
                "--fail-on", "none");
        assertEquals(0, r.code(), r::toString);
        JsonNode p = E2eFixture.json(dir.resolve("out.json")).path("profiles").get(0);
        assertEquals("nsys-sqlite", p.path("format").asText());
        long kernelFindings = 0;
        for (JsonNode f : p.path("findings")) if (f.path("ruleId").asText().equals("site/kernel-seen")) kernelFindings++;
        assertTrue(kernelFindings > 0, "one site/kernel-seen finding per distinct kernel of the profile");
        assertEquals(before, sha256(profile), "the profile is never modified");
    }

    @Test
    void builtInPackFindsDlprofsVerdictOnWRelu() throws Exception {
        // DLProf 1.8's expert systems reported these three problems for this capture (issue 3, item 5).
        Path profile = Corpus.file("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite");
        CliHarness.Result r = cli.run(profile.toString(), "--no-config", "--report", "json=out.json", "--fail-on", "warning");
        assertEquals(1, r.code(), r::toString);
        List<String> rules = E2eFixture.subjects(E2eFixture.json(dir.resolve("out.json"))).stream()
                .map(s -> s.substring(0, s.indexOf(' '))).toList();
        for (String id : List.of("dlprof/amp-not-used", "dlprof/underutilized-gpu", "dlprof/no-iterations")) {
            assertTrue(rules.contains(id), id + " in " + rules);
        }
    }

    @Test
    void sqliteFileWithoutNsysTablesExits3() throws Exception {
        Path db = dir.resolve("other.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE notes (id INTEGER, text TEXT)");
        }
        CliHarness.Result r = cli.run("other.sqlite", "--rules", "site-pack");
        assertEquals(3, r.code(), r::toString);
        assertEquals(1, r.errLines().length, r::toString);
        assertTrue(r.err().startsWith("dlprof-lint: other.sqlite: "), r::toString);
        assertFalse(r.err().contains("\tat "));
    }

    @Test
    void truncatedExportExits3() throws Exception {
        Path profile = Corpus.file("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite");
        byte[] head = new byte[8192];
        try (var in = Files.newInputStream(profile)) {
            assertEquals(head.length, in.readNBytes(head, 0, head.length));
        }
        Files.write(dir.resolve("cut.sqlite"), head);
        CliHarness.Result r = cli.run("cut.sqlite", "--rules", "site-pack");
        assertEquals(3, r.code(), r::toString);
        assertEquals(1, r.errLines().length, r::toString);
        assertTrue(r.err().startsWith("dlprof-lint: cut.sqlite: "), r::toString);
    }

    private static String sha256(Path p) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
    }
}
