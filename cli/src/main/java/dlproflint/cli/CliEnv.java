package dlproflint.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the command sees of its surroundings, passed in rather than read from globals so tests can run
 * the real entry point with captured streams, a chosen working directory and environment.
 *
 * @param interactive stderr is a terminal (progress and automatic colour only then)
 * @param in          standard input, read when a profile is given as {@code -}
 */
public record CliEnv(PrintStream out, PrintStream err, Path cwd, Map<String, String> env,
                     boolean interactive, Supplier<LocalDate> today, InputStream in) {

    /** With the process's standard input. */
    public CliEnv(PrintStream out, PrintStream err, Path cwd, Map<String, String> env, boolean interactive,
                  Supplier<LocalDate> today) {
        this(out, err, cwd, env, interactive, today, System.in);
    }

    /**
     * The real process: stdout and stderr become {@link StdStream}s (installed as {@code System.out/err}
     * too, so every write goes through one buffer) that remember why a write failed.
     */
    public static CliEnv system() {
        StdStream out = StdStream.of(java.io.FileDescriptor.out, "sun.stdout.encoding");
        StdStream err = StdStream.of(java.io.FileDescriptor.err, "sun.stderr.encoding");
        System.setOut(out);
        System.setErr(err);
        return new CliEnv(out, err, Path.of("").toAbsolutePath(), System.getenv(), System.console() != null, LocalDate::now);
    }

    /** A user-given path, relative to the working directory. */
    public Path resolve(String path) {
        return cwd.resolve(path).normalize();
    }

    public String getenv(String name) {
        return env.get(name);
    }

    /** Progress lines only on a terminal and never in CI logs. */
    public boolean showProgress() {
        return interactive && getenv("CI") == null;
    }
}
