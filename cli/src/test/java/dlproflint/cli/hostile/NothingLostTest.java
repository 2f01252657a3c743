package dlproflint.cli.hostile;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 7 item 3, "nothing lost": a report never overwrites an input, and a report that fails half-way
 * (an I/O error, or the process killed) leaves the previous report as it was and no partial file under
 * the report's name. Uses the small PyTorch trace of the end-to-end tests (no corpus needed).
 */
@Timeout(120)
class NothingLostTest {
    private static final String OLD = "{\"previous\": \"report\"}\n";

    @TempDir
    Path dir;
    HostileCli cli;
    Path trace;

    @BeforeEach
    void setUp() throws IOException {
        cli = new HostileCli(dir);
        trace = new HostileInputs(dir).e2eTrace("trace.json");
    }

    @Test
    void aReportOverTheInputIsRefusedInEverySpelling() throws IOException {
        String sha = HostileCli.sha256(trace);
        Files.createDirectories(dir.resolve("sub"));
        Files.createSymbolicLink(dir.resolve("link.json"), trace);
        for (String target : List.of("trace.json", "./trace.json", "sub/../trace.json", dir.resolve("trace.json").toString(), "link.json")) {
            for (String format : List.of("json", "text", "html", "csv", "sarif")) {
                HostileCli.Result r = cli.run("trace.json", "--report", format + "=" + target);
                assertEquals(2, r.code(), format + "=" + target + ": " + r);
                assertEquals(1, r.errLines().size(), r::toString);
                assertTrue(r.err().contains("would overwrite the input profile"), r::toString);
                assertEquals(sha, HostileCli.sha256(trace), "input untouched by " + format + "=" + target);
            }
        }
        // the input given through the link, the report to the real file
        HostileCli.Result r = cli.run("link.json", "--report", "json=trace.json");
        assertEquals(2, r.code(), r::toString);
        assertEquals(sha, HostileCli.sha256(trace));
    }

    @Test
    void aReportFailingHalfWayKeepsTheOldReportAndLeavesNoTemporaryFile() throws IOException {
        Path report = Files.writeString(dir.resolve("out.json"), OLD);
        HostileCli.Result r = cli.run("trace.json", "--report", FailingReporters.FAIL + "=out.json");
        assertEquals(2, r.code(), "a report that cannot be written is exit 2: " + r);
        assertEquals(1, r.errLines().size(), r::toString);
        assertTrue(r.err().startsWith("dlprof-lint: cannot write: simulated write failure"), r::toString);
        assertEquals(OLD, Files.readString(report), "the previous report keeps its content");
        assertEquals(List.of("out.json", "trace.json"), listing(), "no temporary or partial file left");
    }

    /**
     * Every report of a run is rendered before any is put in place (issue 27): one that fails leaves the others as they
     * were, here not there at all, rather than a run that wrote half of its reports.
     */
    @Test
    void aReportFailingHalfWayLeavesNoNewFileWhenThereWasNone() throws IOException {
        HostileCli.Result r = cli.run("trace.json", "--report", "json=ok.json", "--report", FailingReporters.FAIL + "=new.json");
        assertEquals(2, r.code(), r::toString);
        assertFalse(Files.exists(dir.resolve("new.json")), "no partial report");
        assertEquals(List.of("trace.json"), listing(), "no report of a run whose reports could not all be written, no temporary file");
    }

    @Test
    void aRunKilledWhileWritingLeavesTheOldReport() throws Exception {
        Path report = Files.writeString(dir.resolve("out.json"), OLD);
        String sha = HostileCli.sha256(trace);
        // A real JVM running the real entry point, killed (SIGKILL: no shutdown hooks, no finally blocks)
        // while the stalling reporter holds a half-written temporary file.
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"), "dlproflint.cli.Main",
                "trace.json", "--report", FailingReporters.STALL + "=out.json"));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("..").resolve(dir.getFileName() + ".log").toFile());
        pb.environment().put("DLPROF_LINT_CACHE_DIR", Path.of("target", "hostile-kjar-cache").toAbsolutePath().toString());
        Process p = pb.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            Path tmp = null;
            while (tmp == null && System.nanoTime() < deadline && p.isAlive()) {
                tmp = temporaryWithContent();
                if (tmp == null) Thread.sleep(100);
            }
            assertTrue(tmp != null, "the stalling reporter started writing its temporary file");
            assertEquals(OLD, Files.readString(report), "while the new report is being written the old one is intact");
        } finally {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        assertEquals(OLD, Files.readString(report), "a killed run leaves the previous report");
        assertEquals(sha, HostileCli.sha256(trace), "and the input");
        // What may remain is the hidden '.out.json.*.tmp' the kill interrupted: never a file under the report's name.
        for (String f : listing()) {
            assertTrue(f.equals("out.json") || f.equals("trace.json") || (f.startsWith(".out.json.") && f.endsWith(".tmp")), f);
        }
    }

    /** A hidden temporary file of out.json with some bytes in it, or null. */
    private Path temporaryWithContent() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().startsWith(".out.json.")).filter(f -> {
                try {
                    return Files.size(f) > 0;
                } catch (IOException e) {
                    return false;
                }
            }).findFirst().orElse(null);
        }
    }

    private List<String> listing() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).filter(n -> !n.equals("sub") && !n.equals("link.json")).sorted().toList();
        }
    }

}
