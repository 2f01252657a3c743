package dlproflint.cli.hostile;

import dlproflint.cli.Main;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs the real command ({@link Main#run}) in a working folder with captured streams and checks the
 * user-facing contract for a profile that may be broken or hostile:
 * <ul>
 *   <li>exit 3 with exactly one stderr line {@code dlprof-lint: <file>: <problem>}, or</li>
 *   <li>exit 0/1 with a JSON report that parses;</li>
 *   <li>never exit 70 (internal error) or 2 (the arguments are fine), never a stack trace;</li>
 *   <li>the input's bytes (SHA-256) are the same after the run.</li>
 * </ul>
 */
final class HostileCli {
    /** What one run did. */
    record Result(int code, String out, String err) {
        List<String> errLines() {
            return err.isEmpty() ? List.of() : List.of(err.split("\\R"));
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + abbreviate(out) + "\n--- stderr\n" + abbreviate(err);
        }
    }

    /** How a contract-conforming run ended. */
    enum Outcome { REFUSED, LINTED }

    private final Path cwd;

    HostileCli(Path cwd) {
        this.cwd = cwd;
    }

    Result run(String... args) {
        return run(Map.of(), System.in, args);
    }

    /** With more environment variables ({@code TMPDIR}, {@code DLPROF_LINT_*}) and a standard input of the test's. */
    Result run(Map<String, String> extraEnv, InputStream in, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // DLPROF_LINT_CACHE_DIR: the compiled built-in pack is shared by every run of the suite (speed);
        // it lives under target/, never in the user's home.
        Map<String, String> env = new java.util.HashMap<>(extraEnv);
        env.putIfAbsent("DLPROF_LINT_CACHE_DIR", Path.of("target", "hostile-kjar-cache").toAbsolutePath().toString());
        int code = Main.run(new dlproflint.cli.CliEnv(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), cwd, env, false, java.time.LocalDate::now, in), args);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * Lints {@code profile} (a file inside the working folder) with a JSON report and asserts the contract.
     *
     * @return whether the profile was refused (exit 3) or linted (exit 0/1)
     */
    Outcome lintAndCheck(Path profile) throws IOException {
        String name = profile.startsWith(cwd) ? cwd.relativize(profile).toString() : profile.toString();
        // a FIFO or a device has no bytes to compare (and reading a FIFO would block)
        boolean regular = Files.isRegularFile(profile);
        String before = regular ? sha256(profile) : null;
        Path report = reportOf(profile);
        Files.deleteIfExists(report);
        Result r = run(name, "--report", "json=" + report.getFileName());
        if (regular) assertEquals(before, sha256(profile), "the input's bytes changed: " + name);
        return check(r, name, report);
    }

    /** Where {@link #lintAndCheck} writes the JSON report of {@code profile}. */
    Path reportOf(Path profile) {
        return cwd.resolve("report-" + profile.getFileName() + ".json");
    }

    /** The contract on one result; {@code report} is the JSON report path that a successful run wrote. */
    static Outcome check(Result r, String name, Path report) throws IOException {
        assertFalse(r.err().contains("\tat ") || r.err().contains("Exception in thread"), "stack trace on stderr: " + r);
        assertNotEquals(70, r.code(), "internal error: " + r);
        switch (r.code()) {
            case 3 -> {
                List<String> lines = r.errLines();
                assertEquals(1, lines.size(), "exactly one stderr line: " + r);
                assertTrue(lines.get(0).startsWith("dlprof-lint: " + name + ": "), "the line names the file: " + r);
                assertTrue(lines.get(0).length() > ("dlprof-lint: " + name + ": ").length(), "the line says the problem: " + r);
                assertFalse(Files.exists(report), "no report for a refused profile");
                return Outcome.REFUSED;
            }
            case 0, 1 -> {
                assertTrue(Files.isRegularFile(report), "a successful run writes its report: " + r);
                var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(report.toFile());
                assertEquals(1, json.path("profiles").size(), "one profile in the report: " + r);
                return Outcome.LINTED;
            }
            default -> {
                fail("exit code must be 0, 1 or 3: " + r);
                return null;
            }
        }
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) md.update(buf, 0, n);
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 4000 ? s : s.substring(0, 4000) + "... (" + s.length() + " chars)";
    }

    static List<String> list(String... s) {
        return new ArrayList<>(List.of(s));
    }
}
