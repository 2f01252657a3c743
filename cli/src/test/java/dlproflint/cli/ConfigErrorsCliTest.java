package dlproflint.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A malformed configuration stops the command with one line naming the file, line and key: exit 2. */
class ConfigErrorsCliTest {
    @TempDir
    Path dir;
    CliHarness cli;

    @BeforeEach
    void setUp() throws IOException {
        Files.createDirectory(dir.resolve(".git"));
        Files.write(dir.resolve("run.sqlite"), new byte[]{1});
        cli = new CliHarness(dir.resolve("sub"));
        Files.createDirectory(dir.resolve("sub"));
    }

    @Test
    void discoveredConfigWithUnknownKey() throws IOException {
        Files.writeString(dir.resolve(".dlprof-lint.yml"), "packs: {}\nrules:\n  sevrity: {}\n");
        CliHarness.Result r = cli.run("../run.sqlite");
        assertEquals(2, r.code(), r::toString);
        assertEquals("dlprof-lint: .dlprof-lint.yml:3: unknown key 'sevrity' in 'rules' (did you mean 'severity'?)",
                r.err().strip());
    }

    @Test
    void explicitConfigWithWrongType() throws IOException {
        Files.writeString(dir.resolve("ci.yml"), "ruleDirs: 7\n");
        CliHarness.Result r = cli.run("../run.sqlite", "--config", "../ci.yml");
        assertEquals(2, r.code(), r::toString);
        assertEquals(1, r.errLines().length, r::toString);
        assertTrue(r.err().startsWith("dlprof-lint: ci.yml:1: 'ruleDirs': wrong type: expected a list"), r::toString);
    }

    @Test
    void noConfigIgnoresABrokenFile() throws IOException {
        Files.writeString(dir.resolve(".dlprof-lint.yml"), "bogus: true\n");
        CliHarness.Result r = cli.run("../missing.sqlite", "--no-config");
        assertEquals(3, r.code(), "got past the configuration to the profile check: " + r);
    }
}
