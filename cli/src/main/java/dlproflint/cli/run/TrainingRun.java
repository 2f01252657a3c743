package dlproflint.cli.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs the training command once under the bootstrap (directly, or under {@code nsys profile}) and says what
 * came of it: the command's exit code, the bootstrap's status and the capture it left. The bootstrap and its
 * configuration live in a private temporary folder, removed when the run ends.
 *
 * <p>The command's output goes where the user looks: straight to this process's stdout and stderr when they are
 * the real ones (a progress bar stays a progress bar), else through pumps into the streams given (tests, and
 * stdout when a report goes there: then the script's stdout goes to stderr, so the report can be piped).
 */
public final class TrainingRun {
    /**
     * The outcome.
     *
     * @param exitCode the training command's exit code (128 + N when a signal N ended it)
     * @param status   the bootstrap's status, or null when it never ran
     * @param profile  the capture (trace or {@code .nsys-rep}), or null when none was written
     */
    public record Outcome(int exitCode, CaptureStatus status, Path profile) {
    }

    /**
     * Where the command's output goes, and whether it inherits this process's descriptors (else it is pumped into
     * {@code out} and {@code err}; standard input is then closed for it).
     */
    public record Streams(PrintStream out, PrintStream err, boolean inheritIn, boolean inheritOut, boolean inheritErr) {
    }

    private TrainingRun() {
    }

    /**
     * @param nsys the {@code nsys} to profile with in nsys mode (resolved), else null
     * @param profile where the capture goes: the trace ({@code .json}, {@code .json.gz}) or the {@code .nsys-rep}
     */
    public static Outcome run(TrainingCommand command, CaptureSettings settings, Path nsys, Path profile, Path cwd,
                              Map<String, String> env, Streams streams) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("dlprof-lint-run-");
        Process process = null;
        Thread cleanup = null;
        try {
            Path bootstrap = Bootstrap.writeTo(dir);
            Path status = dir.resolve("status.json");
            Path config = dir.resolve("config.json");
            Files.writeString(config, settings.json(status), StandardCharsets.UTF_8);
            List<String> argv = new ArrayList<>();
            if (settings.nsys()) argv.addAll(NsysProfile.argv(nsys, profile, settings));
            argv.addAll(command.argv(bootstrap, config));

            ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd.toFile());
            pb.environment().clear();
            pb.environment().putAll(env);
            if (!streams.inheritOut() || !streams.inheritErr()) pb.environment().put("PYTHONUNBUFFERED", "1");
            pb.redirectInput(streams.inheritIn() ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.PIPE);
            pb.redirectOutput(streams.inheritOut() ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.PIPE);
            pb.redirectError(streams.inheritErr() ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.PIPE);
            streams.out().flush();
            streams.err().flush();
            Process p = pb.start();
            process = p;
            if (!streams.inheritIn()) p.getOutputStream().close();
            // Ctrl-C reaches the whole process group; a JVM stopped otherwise takes the training command with it
            cleanup = new Thread(() -> p.descendants().forEach(ProcessHandle::destroy), "dlprof-lint-run-cleanup");
            Runtime.getRuntime().addShutdownHook(cleanup);
            List<Thread> pumps = new ArrayList<>();
            if (!streams.inheritOut()) pumps.add(pump(p.getInputStream(), streams.out()));
            if (!streams.inheritErr()) pumps.add(pump(p.getErrorStream(), streams.err()));
            int code = p.waitFor();
            for (Thread t : pumps) t.join();
            CaptureStatus s = CaptureStatus.read(status);
            boolean written = Files.isRegularFile(profile) && s != null && s.captured();
            return new Outcome(code, s, written ? profile : null);
        } finally {
            if (process != null && process.isAlive()) {
                process.descendants().forEach(ProcessHandle::destroy);
                process.destroy();
            }
            if (cleanup != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanup);
                } catch (IllegalStateException e) {
                    // the JVM is shutting down already
                }
            }
            delete(dir);
        }
    }

    private static Thread pump(InputStream in, PrintStream to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buf)) > 0) {
                    synchronized (to) {
                        to.write(buf, 0, n);
                        to.flush();
                    }
                }
            } catch (IOException e) {
                // the command's output ended with it
            }
        }, "dlprof-lint-run-output");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void delete(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException | UncheckedIOException e) {
            dir.toFile().deleteOnExit();
        }
    }

    /** Where the bootstrap comes from: a resource of this jar, written to a file the interpreter can run. */
    public static final class Bootstrap {
        /** The bootstrap's resource path in the jar (the release archive ships the same file in {@code python/}). */
        public static final String RESOURCE = "dlproflint/cli/run/dlprof_lint_bootstrap.py";

        private Bootstrap() {
        }

        public static Path writeTo(Path dir) throws IOException {
            Path out = dir.resolve("dlprof_lint_bootstrap.py");
            try (InputStream in = TrainingRun.class.getClassLoader().getResourceAsStream(RESOURCE);
                 OutputStream o = Files.newOutputStream(out)) {
                if (in == null) throw new IOException("the Python bootstrap " + RESOURCE + " is missing from this build");
                in.transferTo(o);
            }
            return out;
        }
    }
}
