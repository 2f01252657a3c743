package dlproflint.cli.hostile;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 28: temporary files do not outlive a run, whatever ends it. A real JVM runs the real entry point
 * ({@code dlproflint.cli.Main}) and is signalled at the moments a run holds a scratch file: while standard input is
 * copied to TMPDIR, while a report is written beside its target (a stalling test reporter holds the moment), while
 * nsys exports a report into TMPDIR. SIGTERM and SIGINT remove what the run made (the exit code is the signal's,
 * 143 or 130); SIGKILL runs nothing, and the next run that makes a file of the same kind in the same place removes
 * what the killed one left.
 */
@Tag("hostile")
@Timeout(value = 600, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SignalsTest {
    private static final String OLD = "{\"previous\": \"report\"}\n";

    @TempDir
    Path dir;
    Path tmp;

    @BeforeEach
    void setUp() throws IOException {
        tmp = Files.createDirectories(dir.resolve("tmp"));
        new HostileInputs(dir).e2eTrace("trace.json");
    }

    private Process start(List<String> args, ProcessBuilder.Redirect stdin) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"), "dlproflint.cli.Main"));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectInput(stdin)
                .redirectErrorStream(true).redirectOutput(dir.resolve("..").resolve(dir.getFileName() + ".log").toFile());
        pb.environment().put("TMPDIR", tmp.toString());
        pb.environment().put("DLPROF_LINT_STDIN_LIMIT", "100G");
        pb.environment().put("DLPROF_LINT_CACHE_DIR", Path.of("target", "hostile-kjar-cache").toAbsolutePath().toString());
        return pb.start();
    }

    /** Waits (at most 120 s) until {@code folder} holds an entry the predicate accepts. */
    private static void awaitEntry(Process p, Path folder, Predicate<Path> wanted, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && p.isAlive()) {
            try (Stream<Path> s = Files.list(folder)) {
                if (s.anyMatch(wanted)) return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(what + " never appeared (process alive: " + p.isAlive() + ")");
    }

    private static boolean hasBytes(Path f) {
        try {
            return Files.size(f) > 0 || Files.isDirectory(f);
        } catch (IOException e) {
            return false;
        }
    }

    private static void signal(Process p, String sig) throws Exception {
        if (sig.equals("KILL")) {
            p.destroyForcibly();
        } else {
            assertEquals(0, new ProcessBuilder("kill", "-" + sig, Long.toString(p.pid())).start().waitFor());
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ended after SIG" + sig);
    }

    private List<String> listing(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    private static Predicate<Path> named(String prefix) {
        return f -> f.getFileName().toString().startsWith(prefix) && hasBytes(f);
    }

    @Test
    void signalsWhileStandardInputIsCopiedLeaveNothingInTmpdir() throws Exception {
        for (String sig : List.of("TERM", "INT")) {
            Process p = start(List.of("-"), ProcessBuilder.Redirect.from(Path.of("/dev/zero").toFile()));
            awaitEntry(p, tmp, named("dlprof-lint-stdin-"), "the copy of standard input");
            signal(p, sig);
            assertEquals(sig.equals("TERM") ? 143 : 130, p.exitValue(), "the signal's exit code");
            assertEquals(List.of(), listing(tmp), "SIG" + sig + " removed the copy");
        }
        // SIGKILL leaves the copy; the next run that copies standard input removes it
        Process killed = start(List.of("-"), ProcessBuilder.Redirect.from(Path.of("/dev/zero").toFile()));
        awaitEntry(killed, tmp, named("dlprof-lint-stdin-"), "the copy of standard input");
        signal(killed, "KILL");
        assertEquals(1, listing(tmp).size(), "SIGKILL ran nothing: " + listing(tmp));
        Process next = start(List.of("-"), ProcessBuilder.Redirect.from(dir.resolve("trace.json").toFile()));
        assertTrue(next.waitFor(120, TimeUnit.SECONDS));
        assertTrue(next.exitValue() == 0 || next.exitValue() == 1, "the next run lints: " + next.exitValue());
        assertEquals(List.of(), listing(tmp), "and removed the killed run's copy");
    }

    @Test
    void signalsWhileAReportIsWrittenLeaveTheOldReportAndNoTemporaryFile() throws Exception {
        Path report = Files.writeString(dir.resolve("out.json"), OLD);
        for (String sig : List.of("TERM", "INT")) {
            Process p = start(List.of("trace.json", "--report", FailingReporters.STALL + "=out.json"), ProcessBuilder.Redirect.INHERIT);
            awaitEntry(p, dir, named(".out.json."), "the report's temporary file");
            signal(p, sig);
            assertEquals(OLD, Files.readString(report), "the old report is intact");
            assertEquals(List.of("out.json", "tmp", "trace.json"), listing(dir), "SIG" + sig + " removed the temporary file");
        }
        Process killed = start(List.of("trace.json", "--report", FailingReporters.STALL + "=out.json"), ProcessBuilder.Redirect.INHERIT);
        awaitEntry(killed, dir, named(".out.json."), "the report's temporary file");
        signal(killed, "KILL");
        assertEquals(4, listing(dir).size(), "SIGKILL ran nothing: " + listing(dir));
        assertEquals(OLD, Files.readString(report));
        Process next = start(List.of("trace.json", "--report", "json=out.json"), ProcessBuilder.Redirect.INHERIT);
        assertTrue(next.waitFor(120, TimeUnit.SECONDS));
        assertTrue(next.exitValue() == 0 || next.exitValue() == 1);
        assertEquals(List.of("out.json", "tmp", "trace.json"), listing(dir), "the next run writing that report removed the leftover");
        assertTrue(Files.readString(report).contains("\"schemaVersion\""), "and wrote the new report");
    }

    @Test
    void sigtermWhileNsysExportsRemovesTheExportAndStopsNsys() throws Exception {
        byte[] head = "NVIDIA Tegra Profiler Report".getBytes(StandardCharsets.US_ASCII);
        Files.write(dir.resolve("run.nsys-rep"), java.util.Arrays.copyOf(head, 4096));
        Path pidFile = dir.resolve("nsys.pid");
        Path nsys = dir.resolve("nsys-slow");
        // writes part of its output where it was told to, then takes its time
        Files.writeString(nsys, "#!/bin/sh\necho $$ > '" + pidFile + "'\nhead -c 100000 /dev/zero > \"$5\"\nexec sleep 100000\n");
        Files.setPosixFilePermissions(nsys, PosixFilePermissions.fromString("rwxr-xr-x"));
        Process p = start(List.of("run.nsys-rep", "--nsys", nsys.toString()), ProcessBuilder.Redirect.INHERIT);
        awaitEntry(p, tmp, named("dlprof-lint-nsys-"), "the export folder");
        while (!Files.exists(pidFile)) Thread.sleep(20);
        signal(p, "TERM");
        assertEquals(List.of(), listing(tmp), "the export folder is removed");
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        // the run's exit sends nsys its signal; on a loaded machine the child may take a moment to go
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) Thread.sleep(50);
        assertTrue(ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true), "nsys is stopped with the run");
    }
}
