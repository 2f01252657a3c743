package dlproflint.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;

/** Runs the real command ({@link Main#run}) with captured stdout/stderr, a working directory and environment. */
final class CliHarness {
    record Result(int code, String out, String err) {
        /** stderr's lines (for "exactly one line" checks). */
        String[] errLines() {
            return err.isEmpty() ? new String[0] : err.split("\\R");
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    private final Path cwd;
    private final Map<String, String> env = new HashMap<>();
    private LocalDate today = LocalDate.now();
    private byte[] stdin = new byte[0];

    CliHarness(Path cwd) {
        this.cwd = cwd;
    }

    CliHarness env(String name, String value) {
        env.put(name, value);
        return this;
    }

    CliHarness today(LocalDate date) {
        today = date;
        return this;
    }

    /** What the command reads from standard input (a profile given as {@code -}). */
    CliHarness stdin(byte[] bytes) {
        stdin = bytes;
        return this;
    }

    Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        LocalDate day = today;
        int code = Main.run(new CliEnv(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), cwd, env, false, () -> day,
                new java.io.ByteArrayInputStream(stdin)), args);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
