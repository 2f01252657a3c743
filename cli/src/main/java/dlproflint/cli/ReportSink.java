package dlproflint.cli;

import dlproflint.reporters.io.AtomicFiles;
import dlproflint.reporters.io.OutputTarget;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Puts one rendered report where its target says: the command's stdout (no path, {@code -}, or an alias
 * of it such as {@code /dev/stdout}), its stderr ({@code /dev/stderr}), or a path, which
 * {@link AtomicFiles} replaces atomically when it is a regular file and writes in place when it is a
 * device or a FIFO. A failed write is an error naming the destination (exit 2).
 */
final class ReportSink {
    private ReportSink() {
    }

    /** @return whether the report went to stdout */
    static boolean write(CliEnv env, ReportTarget t, AtomicFiles.Content content) throws IOException, CliException {
        OutputTarget.Kind kind = t.toStdout() ? OutputTarget.Kind.STDOUT : OutputTarget.of(env.resolve(t.path())).kind();
        switch (kind) {
            case STDOUT -> toStream(env.out(), "standard output", content);
            case STDERR -> toStream(env.err(), "standard error", content);
            default -> AtomicFiles.write(env.resolve(t.path()), content, waitLimit(env));
        }
        return kind == OutputTarget.Kind.STDOUT;
    }

    /**
     * How long a report target that blocks (a named pipe nobody opens for reading, a reader that stopped reading) may
     * keep the run waiting: {@code DLPROF_LINT_OUTPUT_TIMEOUT} seconds, default 30.
     */
    static java.time.Duration waitLimit(CliEnv env) throws CliException {
        return Durations.fromEnvironment(env, "DLPROF_LINT_OUTPUT_TIMEOUT", java.time.Duration.ofSeconds(30));
    }

    /**
     * The report rendered but not yet where it goes (see {@link AtomicFiles#stage}): the reports of a run are all
     * rendered before any is published, so one that fails leaves the others as they were, not half of them new.
     */
    interface Prepared extends java.io.Closeable {
        /** Puts the report in place; returns whether it went to stdout. */
        boolean commit() throws IOException, CliException;
    }

    static Prepared prepare(CliEnv env, ReportTarget t, AtomicFiles.Content content) throws IOException, CliException {
        OutputTarget.Kind kind = t.toStdout() ? OutputTarget.Kind.STDOUT : OutputTarget.of(env.resolve(t.path())).kind();
        if (kind == OutputTarget.Kind.STDOUT || kind == OutputTarget.Kind.STDERR) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            content.writeTo(buf);
            byte[] bytes = buf.toByteArray();
            return new Prepared() {
                @Override
                public boolean commit() throws IOException, CliException {
                    return write(env, t, out -> out.write(bytes));
                }

                @Override
                public void close() {
                }
            };
        }
        AtomicFiles.Staged staged = AtomicFiles.stage(env.resolve(t.path()), content, waitLimit(env));
        return new Prepared() {
            @Override
            public boolean commit() throws IOException {
                staged.commit();
                return false;
            }

            @Override
            public void close() throws IOException {
                staged.close();
            }
        };
    }

    /** Rendered fully before the first byte goes out, so a failing renderer prints nothing. */
    private static void toStream(PrintStream stream, String name, AtomicFiles.Content content) throws IOException, CliException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        content.writeTo(buf);
        stream.write(buf.toByteArray());
        stream.flush();
        String failure = StdStream.failure(stream);
        if (failure != null) throw CliException.usage("cannot write to " + name + ": " + failure);
    }
}
