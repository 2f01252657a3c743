package dlproflint.cli.hostile;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.synth.HostileProfiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17 item 8: messages that say what is wrong. A device is not an "empty file", a folder or a device
 * given as a configuration or baseline is not "not found", and a baseline from a newer dlprof-lint is not
 * read as if it were ours. (Report names too long for the file system: {@link OutputTargetsTest}.)
 *
 * <p>Issue 28, "silently wrong or unclear" and "wrong exit codes": a WAL-mode export is read with the rows of its
 * WAL; pipes in folders, jobs and configuration places are named, never skipped without a word; a trace with NaN,
 * a configuration with a duplicate or an absurdly long key, a folder of link loops say what they are; a profile
 * at a path longer than SQLite takes, or named like an option after {@code --}, is read like any other.
 */
@org.junit.jupiter.api.Tag("hostile")
@Timeout(300)
class ClearErrorsCliTest {
    @TempDir
    Path dir;
    HostileCli cli;

    @BeforeEach
    void setUp() throws IOException {
        cli = new HostileCli(dir);
        new HostileInputs(dir).e2eTrace("trace.json");
    }

    private static void assertOneLine(HostileCli.Result r, int code, String expected) {
        assertEquals(code, r.code(), r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        assertTrue(r.err().contains(expected), "expected '" + expected + "' in: " + r);
    }

    @Test
    void devicesAsProfilesAreNamedAsDevices() {
        for (String dev : new String[] {"/dev/urandom", "/dev/zero"}) {
            HostileCli.Result r = cli.run(dev, "--report", "json=out.json");
            assertOneLine(r, 3, "dlprof-lint: " + dev + ": is a character device, not a profile");
            assertFalse(r.err().contains("empty file"), r::toString);
        }
    }

    @Test
    void aFolderAsConfigurationIsAFolder() throws IOException {
        Files.createDirectories(dir.resolve("conf.d"));
        HostileCli.Result r = cli.run("trace.json", "--config", "conf.d");
        assertOneLine(r, 2, "conf.d: is a directory, not a configuration file");
        assertFalse(r.err().contains("not found"), r::toString);
    }

    @Test
    void aDeviceAsBaselineIsADevice() {
        HostileCli.Result r = cli.run("trace.json", "--baseline", "/dev/zero");
        assertOneLine(r, 2, "/dev/zero: is a character device, not a baseline file");
        assertFalse(r.err().contains("not found"), r::toString);
    }

    @Test
    void aBaselineFromTheFutureIsRefused() throws IOException {
        Files.writeString(dir.resolve("future.json"), """
                {"tool": "dlprof-lint 9.0.0", "schemaVersion": 7,
                 "findings": [{"ruleId": "dlprof/amp-not-used", "fingerprint": "abc", "subject": "profile"}]}
                """);
        assertOneLine(cli.run("trace.json", "--baseline", "future.json"), 2,
                "future.json: baseline schemaVersion 7 is not supported (this dlprof-lint reads 1)");
        Files.writeString(dir.resolve("current.json"), """
                {"tool": "dlprof-lint 0.1.0", "schemaVersion": 1, "findings": []}
                """);
        HostileCli.Result ok = cli.run("trace.json", "--baseline", "current.json", "--fail-on", "none");
        assertEquals(0, ok.code(), ok::toString);
    }

    private Path fifo(String name) throws IOException, InterruptedException {
        return new HostileInputs(dir).fifo(name);
    }

    private static JsonNode json(Path p) throws IOException {
        return new ObjectMapper().readTree(p.toFile());
    }

    /** Rule id and message of every finding: what two reads of the same data must agree on. */
    private static List<String> findings(JsonNode report) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : report.path("profiles").get(0).path("findings")) out.add(f.path("ruleId").asText() + ": " + f.path("problem").asText());
        return out;
    }

    @Test
    void aWalModeExportIsReadWithTheRowsOfItsWal() throws Exception {
        Path wal = HostileProfiles.walOnlyKernels(dir.resolve("wal.sqlite"), 20);
        Path walFile = dir.resolve("wal.sqlite-wal");
        assertTrue(Files.size(walFile) > 0, "the kernels are in the WAL");
        String sha = HostileCli.sha256(wal);
        String walSha = HostileCli.sha256(walFile);
        // the same data checkpointed into one file, by SQLite itself, as the reference
        Path merged = Files.createDirectories(dir.resolve("merged"));
        Files.copy(wal, merged.resolve("wal.sqlite"));
        Files.copy(walFile, merged.resolve("wal.sqlite-wal"));
        try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + merged.resolve("wal.sqlite"))) {
            c.createStatement().execute("PRAGMA wal_checkpoint(TRUNCATE)");
            assertTrue(Integer.parseInt(HostileInputs.query(merged.resolve("wal.sqlite"), "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").get(0)) > 0);
        }
        HostileCli.Result r = cli.run("wal.sqlite", "--report", "json=wal.json", "--fail-on", "none");
        HostileCli.Result ref = cli.run("merged/wal.sqlite", "--report", "json=ref.json", "--fail-on", "none");
        assertEquals(0, r.code(), r::toString);
        assertEquals(0, ref.code(), ref::toString);
        List<String> got = findings(json(dir.resolve("wal.json")));
        assertEquals(findings(json(dir.resolve("ref.json"))), got, "the WAL's kernels are read");
        assertTrue(got.stream().anyMatch(f -> f.contains("kernel") || f.contains("GPU")), "kernels were seen: " + got);
        assertEquals(sha, HostileCli.sha256(wal), "the profile is not written");
        assertEquals(walSha, HostileCli.sha256(walFile), "nor its WAL");
        assertFalse(Files.exists(dir.resolve("wal.sqlite-shm")), "no -shm file beside it");
    }

    @Test
    void pipesInAFolderAreNamedAsSkipped() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("runs"));
        Files.copy(dir.resolve("trace.json"), folder.resolve("a.json"));
        fifo("runs/pipe.json");
        HostileCli.Result r = cli.run("runs", "--report", "json=out.json");
        assertTrue(r.code() == 0 || r.code() == 1, r::toString);
        assertTrue(r.err().contains("dlprof-lint: note: runs/pipe.json: skipped, is a named pipe (FIFO), not a profile"), r::toString);
    }

    @Test
    void aPipeAmongAJobsRanksIsReportedAsUnreadable() throws Exception {
        Path job = Files.createDirectories(dir.resolve("job"));
        HostileProfiles.rankTrace(job.resolve("rank-0.json"), "0", "2");
        fifo("job/rank-1.json");
        HostileCli.Result r = cli.run("job", "job", "--report", "json=job.json");
        assertTrue(r.code() == 0 || r.code() == 1, r::toString);
        assertTrue(r.err().contains("job/rank-1.json: is a named pipe (FIFO), not a profile"), r::toString);
        assertTrue(json(dir.resolve("job.json")).path("job").path("inputs").toString().contains("named pipe"), "listed among the inputs");
    }

    @Test
    void aFoundConfigurationThatIsNotAFileIsAnError() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.copy(dir.resolve("trace.json"), work.resolve("trace.json"));
        HostileCli in = new HostileCli(work);
        Path config = work.resolve(".dlprof-lint.yml");
        new HostileInputs(work).fifo(".dlprof-lint.yml");
        assertOneLine(in.run("trace.json"), 2, ".dlprof-lint.yml: is a named pipe (FIFO), not a configuration file (only regular files are read)"
                + " (found by looking for");
        Files.delete(config);
        Files.createDirectories(config);
        assertOneLine(in.run("trace.json"), 2, ".dlprof-lint.yml: is a directory, not a configuration file (found by looking for");
        Files.delete(config);
        Files.createSymbolicLink(config, Path.of("/dev/zero"));
        assertOneLine(in.run("trace.json"), 2, ".dlprof-lint.yml: is a character device, not a configuration file");
        Files.delete(config);
        assertEquals(0, in.run("trace.json", "--fail-on", "none").code(), "without it, the run is fine");
    }

    @Test
    void aTraceWithNanSaysSoInItsOwnTerms() throws IOException {
        HostileProfiles.nanTrace(dir.resolve("nan.json"));
        HostileCli.Result r = cli.run("nan.json");
        assertOneLine(r, 3, "nan.json: invalid JSON at line 1, column ");
        assertTrue(r.err().contains("NaN is not a JSON number (JSON has no NaN or Infinity"), r::toString);
        assertFalse(r.err().contains("JsonReadFeature") || r.err().contains("ALLOW_"), r::toString);
    }

    @Test
    void configurationKeysThatAreDuplicatedOrAbsurdlyLongAreNamed() throws IOException {
        Files.writeString(dir.resolve("dup.yml"), "rules:\n  disable: [dlprof/amp-not-used]\nrules:\n  enable: []\n");
        HostileCli.Result dup = cli.run("trace.json", "--config", "dup.yml");
        assertOneLine(dup, 2, "dup.yml:3: key 'rules' appears twice (first on line 1); each key may appear once");
        Files.writeString(dir.resolve("long.yml"), "k".repeat(100_000) + ": 1\n");
        HostileCli.Result longKey = cli.run("trace.json", "--config", "long.yml");
        assertEquals(2, longKey.code(), longKey::toString);
        assertEquals(1, longKey.errLines().size(), longKey::toString);
        assertFalse(longKey.err().contains("must be a mapping"), "the real reason, not a guess: " + longKey);
        assertTrue(longKey.err().length() < 700, "one bounded line: " + longKey.err().length());
    }

    @Test
    void aFolderOfLinkLoopsSaysSo() throws IOException {
        Path loops = Files.createDirectories(dir.resolve("loops"));
        Files.createSymbolicLink(loops.resolve("a.json"), loops.resolve("b.json"));
        Files.createSymbolicLink(loops.resolve("b.json"), loops.resolve("a.json"));
        HostileCli.Result r = cli.run("loops");
        assertOneLine(r, 3, "dlprof-lint: loops: no profile in this folder (2 entries skipped: not a regular file, e.g. loops/a.json"
                + " is a symbolic link that leads in a circle (a link loop))");
        assertFalse(r.err().contains("it is empty"), r::toString);
    }

    @Test
    void aProfileAtAPathLongerThanSqliteTakesIsRead() throws IOException {
        Path deep = dir;
        while (deep.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length < 540) deep = deep.resolve("d".repeat(90));
        Files.createDirectories(deep);
        // made at a short path (SQLite cannot write at the long one either) and moved there
        Path profile = Files.move(HostileProfiles.smallNsys(dir.resolve("short.sqlite"), 5), deep.resolve("p.sqlite"));
        assertTrue(profile.toString().length() > 512, "the path is " + profile.toString().length() + " bytes");
        HostileCli.Result r = cli.run(profile.toString(), "--report", "json=long.json", "--fail-on", "none");
        assertEquals(0, r.code(), r::toString);
        assertEquals(profile.toString(), json(dir.resolve("long.json")).path("profiles").get(0).path("path").asText());
    }

    @Test
    void aProfileNamedLikeAnOptionIsAFileAfterTheDoubleDash() throws IOException {
        Files.copy(dir.resolve("trace.json"), dir.resolve("-looks-like-option.json"));
        for (List<String> args : List.of(List.of("--report", "json=o.json", "--", "-looks-like-option.json"),
                List.of("lint", "--report", "json=o.json", "--", "-looks-like-option.json"),
                List.of("--", "-looks-like-option.json"),
                List.of("baseline", "--output", "b.json", "--", "-looks-like-option.json"),
                List.of("compare", "--", "-looks-like-option.json", "trace.json"))) {
            HostileCli.Result r = cli.run(args.toArray(String[]::new));
            assertTrue(r.code() == 0 || r.code() == 1, args + ": " + r);
        }
        HostileCli.Result missing = cli.run("--", "-not-there.json");
        assertOneLine(missing, 3, "dlprof-lint: -not-there.json: no such file");
    }
}
