package dlproflint.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A bug (here a test reader that throws) is exit 70: one line with a hint, the stack trace only with --debug. */
class InternalErrorTest {
    @TempDir
    Path dir;

    @Test
    void unexpectedExceptionIsExit70WithOneLineAndHint() throws IOException {
        new E2eFixture(dir);
        Files.writeString(dir.resolve("odd.prof"), "CRASH-ME please\n");
        CliHarness cli = new CliHarness(dir);
        CliHarness.Result r = cli.run("odd.prof", "--rules", "site-pack", "--no-config");
        assertEquals(70, r.code(), r::toString);
        assertEquals(1, r.errLines().length, r::toString);
        assertTrue(r.err().startsWith("dlprof-lint: internal error: IllegalStateException: simulated reader bug"), r::toString);
        assertTrue(r.err().contains("rerun with --debug"), r::toString);

        CliHarness.Result debug = cli.run("odd.prof", "--rules", "site-pack", "--no-config", "--debug");
        assertEquals(70, debug.code());
        assertTrue(debug.err().contains("\tat dlproflint.cli.testreader.CrashingReader.read"), debug::toString);
        assertFalse(debug.err().contains("rerun with --debug"));
    }
}
