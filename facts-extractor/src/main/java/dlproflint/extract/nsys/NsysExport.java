package dlproflint.extract.nsys;

import dlproflint.extract.ProfileException;
import dlproflint.findings.OneLine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * An Nsight Systems report exported to SQLite by {@code nsys export} in a private temporary folder, never
 * beside the report (its folder may be read-only, shared, or a dataset someone else owns). {@link #close()}
 * removes the folder; a shutdown hook does the same, and stops nsys, when the process is interrupted first.
 */
final class NsysExport implements AutoCloseable {
    private static final String LOG = "nsys-export.log";

    private final Path dir;
    private final Path sqlite;
    private final Thread cleanup;
    private volatile Process process;

    private NsysExport(Path dir, Path sqlite) {
        this.dir = dir;
        this.sqlite = sqlite;
        this.cleanup = new Thread(this::removeNow, "dlprof-lint-nsys-export-cleanup");
    }

    /** Exports {@code report}; the caller reads {@link #sqlite()} and closes. */
    static NsysExport of(Path report, NsysTool tool) throws ProfileException {
        Path nsys = tool.resolve().orElseThrow(() -> new ProfileException(report, missing(report, tool)));
        Path dir;
        try {
            dir = Files.createTempDirectory(tool.tempRoot(), "dlprof-lint-nsys-");
        } catch (IOException | UnsupportedOperationException e) {
            throw new ProfileException(report, "cannot make a temporary folder in " + tool.tempRoot()
                    + " for its SQLite export (set TMPDIR to a writable folder): " + e.getMessage(), e);
        }
        NsysExport export = new NsysExport(dir, dir.resolve(stem(report) + ".sqlite"));
        Runtime.getRuntime().addShutdownHook(export.cleanup);
        try {
            export.run(nsys, report);
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

    private void run(Path nsys, Path report) throws ProfileException {
        Path log = dir.resolve(LOG);
        ProcessBuilder pb = new ProcessBuilder(command(nsys, sqlite, report))
                .directory(dir.toFile()) // whatever else nsys writes lands in the temporary folder too
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        int exit;
        try {
            process = pb.start();
            process.getOutputStream().close();
            exit = process.waitFor();
        } catch (IOException e) {
            throw new ProfileException(report, "cannot run " + nsys + " to export it to SQLite: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProfileException(report, "interrupted while nsys exported it to SQLite", e);
        } finally {
            Process p = process;
            if (p != null && p.isAlive()) p.destroyForcibly();
        }
        if (exit != 0) {
            throw new ProfileException(report, "nsys export failed (exit " + exit + ")" + lastLine(log)
                    + "; is it an Nsight Systems report this nsys can read?");
        }
        if (!Files.isRegularFile(sqlite)) {
            throw new ProfileException(report, "nsys export exited 0 but wrote no " + sqlite.getFileName() + lastLine(log));
        }
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
        Process p = process;
        if (p != null && p.isAlive()) p.destroyForcibly();
        if (!Files.exists(dir)) return;
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path f : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(f);
        } catch (IOException | UncheckedIOException e) {
            System.err.println("dlprof-lint: warning: cannot remove the temporary export " + dir + ": " + e.getMessage());
        }
    }

    private static String lastLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                    .map(String::strip).filter(l -> !l.isEmpty()).toList();
            if (lines.isEmpty()) return "";
            return ": " + OneLine.of(lines.get(lines.size() - 1));
        } catch (IOException | UncheckedIOException e) {
            return "";
        }
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
