package dlproflint.extract.nsys;

import dlproflint.extract.ProfileException;
import dlproflint.extract.common.ReadDeadline;
import dlproflint.io.ScratchFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * An Nsight Systems report exported to SQLite by {@code nsys export} in a private temporary folder, never
 * beside the report (its folder may be read-only, shared, or a dataset someone else owns). {@link #close()}
 * removes the folder; a shutdown hook does the same, and stops nsys, when the process is interrupted first.
 */
final class NsysExport implements AutoCloseable {
    /** The scratch folders' names ({@link ScratchFiles}: a killed run's folder is removed by the next export). */
    static final String PREFIX = "dlprof-lint-nsys-";

    private final Path dir;
    private final Path sqlite;
    private final Thread cleanup;
    private volatile Process process;
    /**
     * Guards the start of nsys against the shutdown hook: a SIGTERM that arrives while {@code pb.start()} runs found no
     * process yet, removed the folder and let the JVM end, and nsys (already started) lived on. The hook now waits for
     * a start in progress and kills what it started; a start after the hook does not happen.
     */
    private final Object starting = new Object();
    private boolean closed; // guarded by starting

    private NsysExport(Path dir, Path sqlite) {
        this.dir = dir;
        this.sqlite = sqlite;
        this.cleanup = new Thread(this::removeNow, "dlprof-lint-nsys-export-cleanup");
    }

    /** Exports {@code report}; the caller reads {@link #sqlite()} and closes. */
    static NsysExport of(Path report, NsysTool tool) throws ProfileException {
        return of(report, tool, ReadDeadline.start(report, null));
    }

    /**
     * Exports {@code report} within {@code deadline} (the read time limit of the report: 60 s plus 1 s per MB, or
     * {@code --read-timeout}); the caller reads {@link #sqlite()} and closes.
     */
    static NsysExport of(Path report, NsysTool tool, ReadDeadline deadline) throws ProfileException {
        Path nsys = tool.resolve().orElseThrow(() -> new ProfileException(report, missing(report, tool)));
        Path dir;
        try {
            ScratchFiles.cleanStale(tool.tempRoot(), PREFIX);
            dir = ScratchFiles.createDirectory(tool.tempRoot(), PREFIX);
        } catch (IOException | UnsupportedOperationException e) {
            throw new ProfileException(report, "cannot make a temporary folder in " + tool.tempRoot()
                    + " for its SQLite export (set TMPDIR to a writable folder): " + e.getMessage(), e);
        }
        NsysExport export = new NsysExport(dir, dir.resolve(stem(report) + ".sqlite"));
        Runtime.getRuntime().addShutdownHook(export.cleanup);
        try {
            export.run(nsys, report, deadline);
            return export;
        } catch (ProfileException | RuntimeException e) {
            export.close();
            throw e;
        }
    }

    Path sqlite() {
        return sqlite;
    }

    /** The command line, for tests and messages: {@code nsys export --type sqlite --output OUT REPORT}. */
    static List<String> command(Path nsys, Path output, Path report) {
        return List.of(nsys.toString(), "export", "--type", "sqlite", "--output", output.toString(),
                report.toAbsolutePath().toString());
    }

    /**
     * Runs nsys under the deadline. Its output (both streams) is read as it comes and only the last
     * {@link OutputTail#KEEP} bytes are kept, for the message: an nsys that writes gigabytes costs neither memory nor
     * disk. One that has not finished by the deadline is killed with its child processes.
     */
    private void run(Path nsys, Path report, ReadDeadline deadline) throws ProfileException {
        ProcessBuilder pb = new ProcessBuilder(command(nsys, sqlite, report))
                .directory(dir.toFile()) // whatever else nsys writes lands in the temporary folder too
                .redirectErrorStream(true);
        int exit;
        OutputTail tail;
        try {
            synchronized (starting) {
                if (closed) throw new ProfileException(report, "interrupted before nsys could export it to SQLite");
                process = pb.start();
            }
            process.getOutputStream().close();
            tail = OutputTail.drain(process.getInputStream());
            boolean ended = deadline == ReadDeadline.NONE ? waitFor(process) : waitFor(process, deadline);
            if (!ended) {
                kill(process);
                throw new ProfileException(report, "nsys export did not finish within " + deadline.limitText()
                        + " (the read time limit: 60 s plus 1 s per MB of the report; --read-timeout changes it)" + tail.lastLine());
            }
            exit = process.exitValue();
            tail.await();
        } catch (IOException e) {
            throw new ProfileException(report, "cannot run " + nsys + " to export it to SQLite: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProfileException(report, "interrupted while nsys exported it to SQLite", e);
        } finally {
            Process p = process;
            if (p != null && p.isAlive()) kill(p);
        }
        if (exit != 0) {
            throw new ProfileException(report, "nsys export failed (exit " + exit + ")" + tail.lastLine()
                    + "; is it an Nsight Systems report this nsys can read?");
        }
        if (!Files.isRegularFile(sqlite)) {
            throw new ProfileException(report, "nsys export exited 0 but wrote no " + sqlite.getFileName() + tail.lastLine());
        }
    }

    private static boolean waitFor(Process p) throws InterruptedException {
        p.waitFor();
        return true;
    }

    private static boolean waitFor(Process p, ReadDeadline deadline) throws InterruptedException {
        long left = deadline.atNanos() - System.nanoTime();
        return left > 0 && p.waitFor(left, java.util.concurrent.TimeUnit.NANOSECONDS) || !p.isAlive();
    }

    /** The process and every process it started (nsys runs helpers). */
    private static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
            // shutting down: the hook is running or will run
        }
        removeNow();
    }

    private void removeNow() {
        Process p;
        synchronized (starting) {
            closed = true;
            p = process;
        }
        if (p != null && p.isAlive()) kill(p);
        ScratchFiles.delete(dir);
    }

    private static String stem(Path report) {
        String name = report.getFileName() == null ? "report" : report.getFileName().toString();
        for (String ext : new String[]{".nsys-rep", ".qdrep"}) {
            if (name.toLowerCase(java.util.Locale.ROOT).endsWith(ext) && name.length() > ext.length()) {
                return name.substring(0, name.length() - ext.length());
            }
        }
        return name;
    }

    private static String missing(Path report, NsysTool tool) {
        String name = report.getFileName() == null ? "report.nsys-rep" : report.getFileName().toString();
        String sqliteName = stem(report) + ".sqlite";
        String how = "; export it with 'nsys export --type sqlite --output " + sqliteName + " " + name
                + "' and lint " + sqliteName;
        return tool.named()
                ? "is an Nsight Systems report, and the nsys given by --nsys or " + NsysTool.ENV + " (" + tool.command()
                        + ") is not an executable file" + how
                : "is an Nsight Systems report, and exporting it to SQLite needs nsys, which is not on PATH" + how
                        + ", or give nsys's path with --nsys PATH or " + NsysTool.ENV;
    }
}
