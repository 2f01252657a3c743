package dlproflint.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Progress only on a terminal outside CI; colour decisions; unwritable report folders. */
class TerminalBehaviourTest {
    @TempDir
    Path dir;

    private CliHarness.Result runOnTerminal(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(new CliEnv(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), dir, env, true, LocalDate::now), args);
        return new CliHarness.Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void progressGoesToStderrOnATerminalButNotInCi() throws Exception {
        new E2eFixture(dir);
        CliHarness.Result tty = runOnTerminal(new HashMap<>(), "trace.json", "--rules", "site-pack", "--color", "never");
        assertTrue(tty.err().contains("dlprof-lint: [1/1] reading trace.json"), tty::toString);
        assertTrue(tty.err().contains("trace.json: read and linted in"), tty::toString);
        assertFalse(tty.out().contains("reading trace.json"), "stdout carries only the report");

        CliHarness.Result ci = runOnTerminal(new HashMap<>(Map.of("CI", "true")), "trace.json", "--rules", "site-pack");
        assertFalse(ci.err().contains("reading"), ci::toString);
        CliHarness.Result piped = new CliHarness(dir).run("trace.json", "--rules", "site-pack");
        assertFalse(piped.err().contains("reading"), piped::toString);
    }

    @Test
    void autoColourOnATerminalUnlessNoColorOrDumb() {
        CliEnv tty = new CliEnv(System.out, System.err, dir, Map.of(), true, LocalDate::now);
        assertTrue(ColorMode.AUTO.enabled(tty));
        assertFalse(ColorMode.AUTO.enabled(new CliEnv(System.out, System.err, dir, Map.of("NO_COLOR", "1"), true, LocalDate::now)));
        assertTrue(ColorMode.AUTO.enabled(new CliEnv(System.out, System.err, dir, Map.of("NO_COLOR", ""), true, LocalDate::now)),
                "an empty NO_COLOR does not count (no-color.org)");
        assertFalse(ColorMode.AUTO.enabled(new CliEnv(System.out, System.err, dir, Map.of("TERM", "dumb"), true, LocalDate::now)));
        assertTrue(ColorMode.ALWAYS.enabled(new CliEnv(System.out, System.err, dir, Map.of("NO_COLOR", "1"), false, LocalDate::now)),
                "an explicit --color always wins over the environment");
        assertFalse(ColorMode.NEVER.enabled(tty));
    }

    @Test
    void reportInAnUnwritableFolderIsRefused() throws Exception {
        Assumptions.assumeFalse("root".equals(System.getProperty("user.name")), "root may write anywhere");
        Files.createDirectory(dir.resolve(".git"));
        Files.writeString(dir.resolve("run.sqlite"), "x");
        Path ro = Files.createDirectory(dir.resolve("ro"));
        Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            CliHarness.Result r = new CliHarness(dir).run("run.sqlite", "--report", "json=ro/out.json");
            assertEquals(2, r.code(), r::toString);
            assertTrue(r.err().contains("is not writable"), r::toString);
        } finally {
            Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }
}
