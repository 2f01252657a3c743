package dlproflint.cli.hostile;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17 item 8: messages that say what is wrong. A device is not an "empty file", a folder or a device
 * given as a configuration or baseline is not "not found", and a baseline from a newer dlprof-lint is not
 * read as if it were ours. (Report names too long for the file system: {@link OutputTargetsTest}.)
 */
@Timeout(120)
class ClearErrorsCliTest {
    @TempDir
    Path dir;
    HostileCli cli;

    @BeforeEach
    void setUp() throws IOException {
        cli = new HostileCli(dir);
        new HostileInputs(dir).e2eTrace("trace.json");
    }

    private static void assertOneLine(HostileCli.Result r, int code, String expected) {
        assertEquals(code, r.code(), r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        assertTrue(r.err().contains(expected), "expected '" + expected + "' in: " + r);
    }

    @Test
    void devicesAsProfilesAreNamedAsDevices() {
        for (String dev : new String[] {"/dev/urandom", "/dev/zero"}) {
            HostileCli.Result r = cli.run(dev, "--report", "json=out.json");
            assertOneLine(r, 3, "dlprof-lint: " + dev + ": is a character device, not a profile");
            assertFalse(r.err().contains("empty file"), r::toString);
        }
    }

    @Test
    void aFolderAsConfigurationIsAFolder() throws IOException {
        Files.createDirectories(dir.resolve("conf.d"));
        HostileCli.Result r = cli.run("trace.json", "--config", "conf.d");
        assertOneLine(r, 2, "conf.d: is a directory, not a configuration file");
        assertFalse(r.err().contains("not found"), r::toString);
    }

    @Test
    void aDeviceAsBaselineIsADevice() {
        HostileCli.Result r = cli.run("trace.json", "--baseline", "/dev/zero");
        assertOneLine(r, 2, "/dev/zero: is a character device, not a baseline file");
        assertFalse(r.err().contains("not found"), r::toString);
    }

    @Test
    void aBaselineFromTheFutureIsRefused() throws IOException {
        Files.writeString(dir.resolve("future.json"), """
                {"tool": "dlprof-lint 9.0.0", "schemaVersion": 7,
                 "findings": [{"ruleId": "dlprof/amp-not-used", "fingerprint": "abc", "subject": "profile"}]}
                """);
        assertOneLine(cli.run("trace.json", "--baseline", "future.json"), 2,
                "future.json: baseline schemaVersion 7 is not supported (this dlprof-lint reads 1)");
        Files.writeString(dir.resolve("current.json"), """
                {"tool": "dlprof-lint 0.1.0", "schemaVersion": 1, "findings": []}
                """);
        HostileCli.Result ok = cli.run("trace.json", "--baseline", "current.json", "--fail-on", "none");
        assertEquals(0, ok.code(), ok::toString);
    }
}
