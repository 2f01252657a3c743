package dlproflint.cli.hostile;

import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.cli.Main;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17 items 1, 5 and 8: reports written to things that are not regular files. The atomic
 * temporary-file-and-rename is right for regular files only; as root (CI containers run as root) a rename
 * over {@code /dev/null} or {@code /dev/stdout} replaces the device or the link. Devices, FIFOs and
 * descriptor aliases are written in place and stay what they were; links are followed; write errors
 * (a full device, a closed stdout) exit 2 with one line; a name the file system cannot hold is refused
 * before the profile is read.
 *
 * <p>The device cases first run on a private device node made with {@code mknod} (same major/minor as
 * {@code /dev/null} and {@code /dev/full}), so a regression damages a file in a temporary folder, not the
 * machine; {@code /dev/null} itself is only written after its private twin survived.
 */
@org.junit.jupiter.api.Tag("hostile")
@Timeout(180)
class OutputTargetsTest {
    private static final int NULL_MAJOR = 1;
    private static final int NULL_MINOR = 3;
    private static final int FULL_MINOR = 7;

    @TempDir
    Path dir;
    HostileCli cli;

    @BeforeEach
    void setUp() throws IOException {
        cli = new HostileCli(dir);
        new HostileInputs(dir).e2eTrace("trace.json");
    }

    @Test
    void aCharacterDeviceStaysADevice() throws Exception {
        Path twin = dir.resolve("null");
        if (mknod(twin, NULL_MINOR)) {
            assertReportLeavesDevice(twin.toString(), "private /dev/null twin");
        }
        assertTrue(isCharDevice(Path.of("/dev/null")), "/dev/null is a character device before the test");
        assertReportLeavesDevice("/dev/null", "/dev/null");
        // the other writers share the same path: a baseline and the DLProf-format reports
        assertEquals(0, cli.run("baseline", "trace.json", "--output", "/dev/null").code());
        assertTrue(isCharDevice(Path.of("/dev/null")), "baseline --output /dev/null");
    }

    private void assertReportLeavesDevice(String target, String what) throws IOException {
        for (String format : List.of("json", "sarif", "csv", "text", "html")) {
            HostileCli.Result r = cli.run("trace.json", "--report", format + "=" + target, "--sarif-anchor", "trace.json");
            assertTrue(r.code() == 0 || r.code() == 1, what + " " + format + ": " + r);
            assertTrue(isCharDevice(Path.of(target)), what + " is still a character device after --report " + format);
        }
        assertEquals(List.of("trace.json"), leftovers(), "no temporary file left next to " + what);
    }

    @Test
    void standardOutputAliasesCarryTheReport() throws Exception {
        // In process, /dev/stdout and /proc/self/fd/1 are this command's stdout: the captured stream.
        Path alias = Files.createSymbolicLink(dir.resolve("to-stdout"), Path.of("/proc/self/fd/1"));
        for (String target : List.of("/dev/stdout", "/proc/self/fd/1", alias.toString())) {
            HostileCli.Result r = cli.run("trace.json", "--report", "json=" + target);
            assertEquals(1, new ObjectMapper().readTree(r.out()).path("profiles").size(), target + ": " + r);
            assertTrue(Files.isSymbolicLink(alias), "the alias is still a link");
        }
        assertTrue(Files.isSymbolicLink(Path.of("/dev/stdout")), "/dev/stdout is still a link");
        HostileCli.Result two = cli.run("trace.json", "--report", "json=/dev/stdout", "--report", "text");
        assertEquals(2, two.code(), "two reports on stdout are refused, however stdout is spelled: " + two);
    }

    /** The real JVM, its stdout a pipe: a SARIF report to /dev/stdout arrives on the pipe (it printed nothing before). */
    @Test
    void devStdoutInARealProcess() throws Exception {
        Process p = java(List.of("trace.json", "--report", "sarif=/dev/stdout", "--sarif-anchor", "trace.json")).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        // 0 or 1: since severity follows impact, the trace's findings may reach the default --fail-on error
        assertTrue(p.exitValue() == 0 || p.exitValue() == 1, new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals("2.1.0", new ObjectMapper().readTree(out).path("version").asText());
        assertTrue(Files.isSymbolicLink(Path.of("/dev/stdout")), "/dev/stdout is still a link");
    }

    @Test
    void aFifoIsWrittenInPlace() throws Exception {
        Path fifo = dir.resolve("report.fifo");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(0, mk.waitFor());
        CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
            try (InputStream in = Files.newInputStream(fifo)) {
                return in.readAllBytes();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        HostileCli.Result r = cli.run("trace.json", "--report", "json=" + fifo);
        assertTrue(r.code() == 0 || r.code() == 1, r::toString);
        byte[] got = read.get(60, TimeUnit.SECONDS);
        assertEquals(1, new ObjectMapper().readTree(got).path("profiles").size());
        assertTrue(Files.readAttributes(fifo, "unix:mode").get("mode") instanceof Integer m && (m & 0170000) == 0010000,
                "the FIFO is still a FIFO");
    }

    /** Issue 28: a FIFO that no process reads no longer hangs the run: its open is bounded, and so is a stalled write. */
    @Test
    void aFifoNobodyReadsEndsTheRunAfterTheOutputTimeout() throws Exception {
        Path fifo = dir.resolve("nobody.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        long t0 = System.nanoTime();
        HostileCli.Result r = cli.run(Map.of("DLPROF_LINT_OUTPUT_TIMEOUT", "2"), System.in, "trace.json", "--report", "json=" + fifo);
        assertEquals(2, r.code(), r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        assertTrue(r.err().contains("is a named pipe (FIFO) that no process opened for reading within 2 s"), r::toString);
        assertTrue((System.nanoTime() - t0) / 1_000_000_000L < 60, "bounded");
        assertTrue(Files.readAttributes(fifo, "unix:mode").get("mode") instanceof Integer m && (m & 0170000) == 0010000,
                "still a FIFO");
        // a reader that opens the pipe and then reads nothing: the write stalls once the pipe's buffer is full
        CompletableFuture<Void> lazy = CompletableFuture.runAsync(() -> {
            try (InputStream in = Files.newInputStream(fifo)) {
                Thread.sleep(30_000);
            } catch (IOException | InterruptedException e) {
                // the test is over
            }
        });
        HostileCli.Result stalled = cli.run(Map.of("DLPROF_LINT_OUTPUT_TIMEOUT", "2"), System.in, "trace.json",
                "--report", "html=" + fifo);
        assertEquals(2, stalled.code(), stalled::toString);
        assertTrue(stalled.err().contains("its reader took no data for 2 s"), stalled::toString);
        lazy.cancel(true);
    }

    @Test
    void aLinkIsFollowedAndStaysALink() throws IOException {
        Path real = dir.resolve("real.json");
        Files.writeString(real, "old");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), Path.of("real.json"));
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.json"), Path.of("created.json"));
        HostileCli.Result r = cli.run("trace.json", "--report", "json=link.json", "--report", "csv=dangling.json");
        assertTrue(r.code() == 0 || r.code() == 1, r::toString);
        assertTrue(Files.isSymbolicLink(link), "the link is still a link");
        assertEquals(1, new ObjectMapper().readTree(real.toFile()).path("profiles").size(), "the file it points to was replaced");
        assertTrue(Files.isSymbolicLink(dangling) && Files.isRegularFile(dir.resolve("created.json")),
                "a dangling link creates the file it names");
    }

    @Test
    void aFullDeviceIsAnErrorNotASilentSuccess() throws Exception {
        Path full = dir.resolve("full");
        String target = mknod(full, FULL_MINOR) ? full.toString() : "/dev/full";
        HostileCli.Result r = cli.run("trace.json", "--report", "json=" + target);
        assertEquals(2, r.code(), r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        assertTrue(r.err().startsWith("dlprof-lint: " + target + ": cannot write: "), r::toString);
        assertTrue(r.err().contains("No space left on device"), r::toString);
    }

    @Test
    void aFailingStdoutIsAnError() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        OutputStream broken = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        int code = Main.run(new PrintStream(broken, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                dir, Map.of("DLPROF_LINT_CACHE_DIR", Path.of("target", "hostile-kjar-cache").toAbsolutePath().toString()),
                "trace.json", "--report", "json");
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(2, code, e);
        assertEquals(1, e.lines().count(), e);
        assertTrue(e.startsWith("dlprof-lint: cannot write to standard output"), e);
    }

    /** A real process whose stdout is closed ({@code >&-}): it used to exit 0 having printed nothing. */
    @Test
    void aClosedStdoutInARealProcess() throws Exception {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", "exec \"$0\" \"$@\" >&-"));
        cmd.addAll(javaCommand(List.of("trace.json", "--report", "json")));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().put("DLPROF_LINT_CACHE_DIR", Path.of("target", "hostile-kjar-cache").toAbsolutePath().toString());
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(2, p.exitValue(), err);
        assertTrue(err.strip().startsWith("dlprof-lint: cannot write to standard output"), err);
        assertEquals(1, err.strip().lines().count(), err);
    }

    @Test
    void reportNamesAreCheckedBeforeTheProfileIsRead() throws IOException {
        String ok = "r".repeat(245) + ".json";     // 250 bytes: valid
        String tooLong = "r".repeat(295) + ".json"; // 300 bytes: no file system takes it
        HostileCli.Result r = cli.run("trace.json", "--report", "json=" + ok);
        assertTrue(r.code() == 0 || r.code() == 1, "a 250-byte name works (its temporary file has a shorter name): " + r);
        assertTrue(Files.isRegularFile(dir.resolve(ok)));
        assertEquals(List.of(ok, "trace.json"), leftovers(), "no temporary file left");

        Files.writeString(dir.resolve("notes.txt"), "not a profile\n");
        HostileCli.Result bad = cli.run("notes.txt", "--report", "json=" + tooLong);
        assertEquals(2, bad.code(), "refused as a usage error, not after reading the profile (which would be exit 3): " + bad);
        assertEquals(1, bad.errLines().size(), bad::toString);
        assertTrue(bad.err().contains("cannot write --report json"), bad::toString);
        assertFalse(bad.err().contains(".tmp"), "the message names the report, not a temporary file: " + bad);

        HostileCli.Result dlprof = cli.run("report", "notes.txt", "--base-name", "b".repeat(290), "--output-path", "out");
        assertEquals(2, dlprof.code(), "DLProf report names too: " + dlprof);
    }

    private ProcessBuilder java(List<String> args) {
        ProcessBuilder pb = new ProcessBuilder(javaCommand(args)).directory(dir.toFile());
        pb.environment().put("DLPROF_LINT_CACHE_DIR", Path.of("target", "hostile-kjar-cache").toAbsolutePath().toString());
        return pb;
    }

    private static List<String> javaCommand(List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), "dlproflint.cli.Main"));
        cmd.addAll(args);
        return cmd;
    }

    /** A device node with /dev/null's major number; false when this user or container may not make one. */
    private static boolean mknod(Path node, int minor) throws Exception {
        Process p = new ProcessBuilder("mknod", node.toString(), "c", Integer.toString(NULL_MAJOR), Integer.toString(minor))
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (p.waitFor() != 0 || !isCharDevice(node)) {
            System.out.println("output targets: cannot mknod here; testing the system device directly");
            return false;
        }
        try (OutputStream probe = Files.newOutputStream(node, java.nio.file.StandardOpenOption.WRITE)) {
            probe.write('x');
            probe.flush();
            return minor == NULL_MINOR;
        } catch (IOException e) {
            // /dev/full's twin fails on write, which is its point; anything else (a device cgroup refusing
            // to open the node) means the twin is unusable here
            return minor == FULL_MINOR && String.valueOf(e.getMessage()).contains("No space left");
        }
    }

    private static boolean isCharDevice(Path p) throws IOException {
        Object mode = Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        return mode instanceof Integer m && (m & 0170000) == 0020000;
    }

    private List<String> leftovers() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).filter(n -> !n.equals("null") && !n.equals("full")).sorted().toList();
        }
    }
}
