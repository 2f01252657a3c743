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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 7 item 3, "nothing lost": a report never overwrites an input, and a report that fails half-way
 * (an I/O error, or the process killed) leaves the previous report as it was and no partial file under
 * the report's name. Uses the small PyTorch trace of the end-to-end tests (no corpus needed).
 *
 * <p>Issue 28 item 1, "nothing that is read is written": the configuration (named or found), a rule pack's
 * manifest and rules, and the baseline are inputs too, and two reports that lead to one file through a link
 * are refused before anything is written.
 */
@org.junit.jupiter.api.Tag("hostile")
@Timeout(300)
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


    private Path sitePack() throws IOException {
        Path pack = Files.createDirectories(dir.resolve("pack"));
        Files.writeString(pack.resolve("pack.yaml"), "id: mine\nversion: 1.0.0\ndescription: a site pack\n");
        Files.writeString(pack.resolve("quiet.drl"), "package site.mine;\nimport dlproflint.facts.*;\nrule \"quiet\"\n"
                + "    @id(\"mine/quiet\") @name(\"Quiet\") @severity(\"note\") @category(\"test\") @since(\"1.0.0\")"
                + " @summary(\"Never fires.\")\nwhen\n    ProfileInfo(path == \"never\")\nthen\nend\n");
        Files.writeString(pack.resolve("quiet.md"), "# Quiet\n");
        return pack;
    }

    /** Every file the run reads, as a report target: refused naming what it is, and unchanged. */
    @Test
    void nothingTheRunReadsIsWritten() throws IOException {
        Path pack = sitePack();
        Path config = Files.writeString(dir.resolve("team.yml"), "rules:\n  disable: [dlprof/amp-not-used]\n");
        Path baseline = dir.resolve("known.json");
        assertEquals(0, cli.run("baseline", "trace.json", "--output", "known.json").code());
        Files.createSymbolicLink(dir.resolve("config-link.json"), config);
        record Case(List<String> args, String role) {
        }
        List<Case> cases = List.of(
                new Case(List.of("--config", "team.yml", "--report", "json=team.yml"), "the configuration file"),
                new Case(List.of("--config", "team.yml", "--report", "sarif=config-link.json"), "the configuration file"),
                new Case(List.of("--rules", "pack", "--report", "json=pack/pack.yaml"), "a file of the rule folder"),
                new Case(List.of("--rules", "pack", "--report", "text=pack/quiet.drl"), "a file of the rule folder"),
                new Case(List.of("--baseline", "known.json", "--report", "json=known.json"), "the baseline file"));
        for (Case c : cases) {
            Map<String, String> before = hashes(config, pack.resolve("pack.yaml"), pack.resolve("quiet.drl"), baseline);
            List<String> args = new ArrayList<>(List.of("trace.json"));
            args.addAll(c.args());
            HostileCli.Result r = cli.run(args.toArray(String[]::new));
            assertEquals(2, r.code(), c + ": " + r);
            assertEquals(1, r.errLines().size(), r::toString);
            assertTrue(r.err().contains("would overwrite " + c.role()), c + ": " + r);
            assertEquals(before, hashes(config, pack.resolve("pack.yaml"), pack.resolve("quiet.drl"), baseline), "unchanged by " + c);
        }
        // a configuration found by discovery is an input as well, and so for 'baseline --output' and 'rules docs'
        Files.copy(config, dir.resolve(".dlprof-lint.yml"));
        HostileCli.Result found = cli.run("trace.json", "--report", "json=.dlprof-lint.yml");
        assertEquals(2, found.code(), found::toString);
        assertTrue(found.err().contains("would overwrite the configuration file"), found::toString);
        HostileCli.Result base = cli.run("baseline", "trace.json", "--output", ".dlprof-lint.yml");
        assertEquals(2, base.code(), base::toString);
        Files.delete(dir.resolve(".dlprof-lint.yml"));
        Files.createDirectories(dir.resolve("docs/mine"));
        Files.createSymbolicLink(dir.resolve("docs/mine/quiet.md"), pack.resolve("quiet.md"));
        String help = HostileCli.sha256(pack.resolve("quiet.md"));
        HostileCli.Result docs = cli.run("rules", "docs", "--rules", "pack", "--pack", "mine", "--output", "docs");
        assertEquals(2, docs.code(), docs::toString);
        assertTrue(docs.err().contains("would overwrite a file of the rule folder"), docs::toString);
        assertEquals(help, HostileCli.sha256(pack.resolve("quiet.md")), "the rule's help page is not replaced by its generated page");
    }

    @Test
    void twoReportsThatLeadToOneFileAreRefusedBeforeAnythingIsWritten() throws IOException {
        Files.createSymbolicLink(dir.resolve("alias.json"), dir.resolve("out.json"));
        HostileCli.Result r = cli.run("trace.json", "--report", "json=out.json", "--report", "sarif=alias.json");
        assertEquals(2, r.code(), r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        assertTrue(r.err().contains("alias.json: two reports would write the same file (out.json leads there too)"), r::toString);
        assertFalse(Files.exists(dir.resolve("out.json")), "nothing written");
        Files.writeString(dir.resolve("out.json"), OLD);
        HostileCli.Result again = cli.run("trace.json", "--report", "sarif=alias.json", "--report", "json=./out.json");
        assertEquals(2, again.code(), again::toString);
        assertEquals(OLD, Files.readString(dir.resolve("out.json")));
    }

    private static Map<String, String> hashes(Path... files) throws IOException {
        Map<String, String> out = new java.util.TreeMap<>();
        for (Path f : files) out.put(f.getFileName().toString(), HostileCli.sha256(f));
        return out;
    }
}
