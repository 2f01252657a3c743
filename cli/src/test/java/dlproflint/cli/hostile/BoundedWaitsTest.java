package dlproflint.cli.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.synth.HostileProfiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 28 item 2, "every wait is bounded", through the command: standard input that never ends, never speaks or is
 * closed; an nsys that never exits or floods its output; site rules whose conditions never return while the pack
 * loads; jobs whose profiles claim absurd world sizes; a configuration of one 10 MB comment line. Each ends with
 * one line and exit 2 or 3 (or a report) well within its limit, leaving no scratch file.
 */
@org.junit.jupiter.api.Tag("hostile")
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BoundedWaitsTest {
    @TempDir
    Path dir;
    HostileCli cli;
    Path tmp;

    @BeforeEach
    void setUp() throws IOException {
        cli = new HostileCli(dir);
        tmp = Files.createDirectories(dir.resolve("tmp"));
    }

    private List<String> tmpListing() throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static long seconds(long t0) {
        return (System.nanoTime() - t0) / 1_000_000_000L;
    }

    /** Zeros for ever, and what TMPDIR held once the copy had begun. */
    private static final class EndlessZeros extends InputStream {
        final AtomicReference<List<String>> seen = new AtomicReference<>();
        private final Path watch;
        private long served;

        EndlessZeros(Path watch) {
            this.watch = watch;
        }

        @Override
        public int read() {
            return 0;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (served > 1 << 20 && seen.get() == null) {
                try (Stream<Path> s = Files.list(watch)) {
                    seen.set(s.map(p -> p.getFileName().toString()).toList());
                }
            }
            java.util.Arrays.fill(b, off, off + len, (byte) 0);
            served += len;
            return len;
        }
    }

    @Test
    void endlessStandardInputStopsAtItsLimitInTmpdirAndLeavesNothing() throws IOException {
        EndlessZeros zeros = new EndlessZeros(tmp);
        long t0 = System.nanoTime();
        HostileCli.Result r = cli.run(Map.of("TMPDIR", tmp.toString(), "DLPROF_LINT_STDIN_LIMIT", "16M"), zeros, "-",
                "--report", "json=out.json");
        assertEquals(3, r.code(), r::toString);
        assertEquals(List.of("dlprof-lint: -: standard input holds more than 16 MiB (DLPROF_LINT_STDIN_LIMIT); pass so large a"
                + " profile as a file"), r.errLines());
        assertTrue(seen(zeros).stream().anyMatch(n -> n.startsWith("dlprof-lint-stdin-")), "the copy is made in TMPDIR: " + seen(zeros));
        assertEquals(List.of(), tmpListing(), "and removed");
        assertTrue(seconds(t0) < 60, "bounded");
    }

    private static List<String> seen(EndlessZeros z) {
        return z.seen.get() == null ? List.of() : z.seen.get();
    }

    @Test
    void silentStandardInputEndsAfterItsIdleLimit() throws IOException {
        InputStream silent = new InputStream() {
            @Override
            public int read() {
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return -1;
            }
        };
        long t0 = System.nanoTime();
        HostileCli.Result r = cli.run(Map.of("TMPDIR", tmp.toString(), "DLPROF_LINT_STDIN_TIMEOUT", "1"), silent, "-");
        assertEquals(3, r.code(), r::toString);
        assertEquals(List.of("dlprof-lint: -: no data arrived on standard input for 1 s after 0 bytes (DLPROF_LINT_STDIN_TIMEOUT);"
                + " is anything writing to it?"), r.errLines());
        assertTrue(seconds(t0) < 30, "bounded by the idle limit");
        assertEquals(List.of(), tmpListing());
    }

    @Test
    void closedStandardInputSaysSo() throws IOException {
        HostileCli.Result r = cli.run(Map.of("TMPDIR", tmp.toString()), new ByteArrayInputStream(new byte[0]), "-");
        assertEquals(3, r.code(), r::toString);
        assertEquals(List.of("dlprof-lint: -: standard input is empty (nothing was piped in, or it was closed)"), r.errLines());
        assertEquals(List.of(), tmpListing());
    }

    @Test
    void aProfileOnStandardInputIsStillRead() throws IOException {
        byte[] trace;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("e2e/trace.json")) {
            trace = in.readAllBytes();
        }
        HostileCli.Result r = cli.run(Map.of("TMPDIR", tmp.toString()), new ByteArrayInputStream(trace), "-", "--report", "json=out.json");
        assertTrue(r.code() == 0 || r.code() == 1, r::toString);
        assertEquals(List.of(), tmpListing());
    }

    private Path nsysReport() throws IOException {
        byte[] head = "NVIDIA Tegra Profiler Report".getBytes(StandardCharsets.US_ASCII);
        byte[] b = java.util.Arrays.copyOf(head, 4096);
        return Files.write(dir.resolve("run.nsys-rep"), b);
    }

    private Path script(String name, String body) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    @Test
    void anNsysThatNeverExitsIsKilledAtTheReadLimit() throws Exception {
        nsysReport();
        Path pidFile = dir.resolve("nsys.pid");
        Path nsys = script("nsys-hangs", "echo $$ > '" + pidFile + "'\nexec sleep 100000");
        long t0 = System.nanoTime();
        HostileCli.Result r = cli.run(Map.of("TMPDIR", tmp.toString()), System.in, "run.nsys-rep", "--nsys", nsys.toString(),
                "--read-timeout", "2");
        assertEquals(3, r.code(), r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        assertTrue(r.err().startsWith("dlprof-lint: run.nsys-rep: nsys export did not finish within 2 s"), r::toString);
        assertTrue(seconds(t0) < 60);
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        Thread.sleep(200);
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "nsys (and its sleep) killed");
        assertEquals(List.of(), tmpListing(), "its scratch folder removed");
    }

    @Test
    void anNsysThatFloodsItsOutputCostsNoMemoryAndIsQuotedByItsLastLine() throws IOException {
        nsysReport();
        Path nsys = script("nsys-floods", "head -c 1000000000 /dev/zero | tr '\\0' x\necho\nhead -c 100000000 /dev/zero | tr '\\0' y >&2\n"
                + "echo >&2\necho 'the last words' >&2\nexit 7");
        HostileCli.Result r = cli.run(Map.of("TMPDIR", tmp.toString()), System.in, "run.nsys-rep", "--nsys", nsys.toString());
        assertEquals(3, r.code(), r::toString);
        assertEquals(List.of("dlprof-lint: run.nsys-rep: nsys export failed (exit 7): the last words; is it an Nsight Systems report"
                + " this nsys can read?"), r.errLines());
        assertEquals(List.of(), tmpListing());
    }

    private Path loadPack(String function, boolean trusted) throws IOException {
        Path p = Files.createDirectories(dir.resolve("load-" + function));
        Files.writeString(p.resolve("pack.yaml"), "id: atload\nversion: 1.0.0\ndescription: conditions that run at load\n"
                + (trusted ? "trusted: true\n" : ""));
        String functions = switch (function) {
            case "spin" -> "function boolean spin() { long i = 1; while (i != 0) { i = (i * 31 + 7) % 1000003 + 1; } return true; }";
            case "swallow" -> "function boolean swallow() { while (true) { try { Thread.sleep(100000); }"
                    + " catch (InterruptedException e) { } } }";
            default -> "function boolean sleepy() { for (int i = 0; ; i++) { try { Thread.sleep(50); }"
                    + " catch (InterruptedException e) { i--; } } }";
        };
        Files.writeString(p.resolve("stuck.drl"), "package site.atload;\nimport dlproflint.facts.*;\n" + functions + "\n"
                + "rule \"stuck\"\n    @id(\"atload/stuck\") @name(\"Stuck\") @severity(\"note\") @category(\"test\") @since(\"1.0.0\")"
                + " @summary(\"Never returns at load.\")\nwhen\n    eval(" + function + "())\nthen\nend\n");
        Files.writeString(p.resolve("stuck.md"), "# Stuck\n");
        return p;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"spin, false", "swallow, true", "sleepy, true"})
    void aConditionThatNeverReturnsAtLoadEndsWithinTheRuleTimeout(String function, boolean trusted) throws IOException {
        Path pack = loadPack(function, trusted);
        new HostileInputs(dir).e2eTrace("trace.json");
        long t0 = System.nanoTime();
        HostileCli.Result r = cli.run("trace.json", "--rules", pack.toString(), "--rule-timeout", "2", "--report", "json=out.json");
        assertEquals(2, r.code(), r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        assertTrue(r.err().startsWith("dlprof-lint: " + pack.resolve("stuck.drl") + ":4: rule \"stuck\" of pack atload: building the"
                + " pack's rule base did not finish within 12 s"), r::toString);
        assertFalse(Files.exists(dir.resolve("out.json")));
        assertTrue(seconds(t0) < 120, "bounded: " + seconds(t0) + " s");

        // listing and explaining the same pack run none of its code: they answer at once
        long t1 = System.nanoTime();
        HostileCli.Result list = cli.run("rules", "list", "--rules", pack.toString(), "--no-config");
        assertEquals(0, list.code(), list::toString);
        assertTrue(list.out().contains("atload/stuck"), list::toString);
        HostileCli.Result explain = cli.run("rules", "explain", "atload/stuck", "--rules", pack.toString(), "--no-config");
        assertEquals(0, explain.code(), explain::toString);
        assertTrue(seconds(t1) < 60, "listing ran no rule code: " + seconds(t1) + " s");
    }

    private JsonNode job(String... args) throws IOException {
        long t0 = System.nanoTime();
        HostileCli.Result r = cli.run(args);
        assertTrue(r.code() == 0 || r.code() == 1, r::toString);
        assertTrue(seconds(t0) < 60, "a job of two small ranks takes seconds whatever world size they claim: " + seconds(t0));
        return new ObjectMapper().readTree(dir.resolve("job.json").toFile());
    }

    @Test
    void absurdWorldSizesAreReportedAsImplausibleNotEnumerated() throws IOException {
        Path max = Files.createDirectories(dir.resolve("max"));
        HostileProfiles.rankTrace(max.resolve("rank-0.json"), "0", Integer.toString(Integer.MAX_VALUE));
        HostileProfiles.rankTrace(max.resolve("rank-1.json"), "1", Integer.toString(Integer.MAX_VALUE));
        JsonNode j = job("job", "max", "--report", "json=job.json");
        assertEquals(2, j.path("job").path("worldSize").asInt(), j.path("job").toString());
        assertTrue(j.path("job").path("notes").toString().contains("claims a world size of 2147483647, implausible"), j.toString());

        Path odd = Files.createDirectories(dir.resolve("odd"));
        HostileProfiles.rankTrace(odd.resolve("a.json"), "-5", "-1");
        HostileProfiles.rankTrace(odd.resolve("b.json"), "\"zero\"", "1e300");
        job("job", "odd", "--report", "json=job.json");

        Path many = Files.createDirectories(dir.resolve("many"));
        HostileProfiles.rankTrace(many.resolve("rank-0.json"), "0", "50000000");
        HostileProfiles.rankTrace(many.resolve("rank-1.json"), "1", "50000000");
        JsonNode m = job("job", "many", "--report", "json=job.json");
        assertTrue(m.path("job").path("notes").toString().contains("claims a world size of 50000000, implausible"), m.toString());

        Path big = Files.createDirectories(dir.resolve("big"));
        HostileProfiles.rankTrace(big.resolve("rank-0.json"), "0", "1000000");
        HostileProfiles.rankTrace(big.resolve("rank-1.json"), "1", "1000000");
        JsonNode b = job("job", "big", "--report", "json=job.json");
        assertEquals(1_000_000, b.path("job").path("worldSize").asInt());
        assertEquals("2-999999", b.path("job").path("missingRanks").asText(), b.path("job").toString());
    }

    @Test
    void aConfigurationOfOneHugeCommentLineIsRefusedAtOnceAndAnAllowedOneIsQuick() throws IOException {
        new HostileInputs(dir).e2eTrace("trace.json");
        HostileProfiles.longCommentConfig(dir.resolve(".dlprof-lint.yml"), 10 << 20);
        long t0 = System.nanoTime();
        HostileCli.Result r = cli.run("trace.json");
        assertEquals(2, r.code(), r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        assertTrue(r.err().contains(".dlprof-lint.yml: configuration file larger than 1 MiB"), r::toString);
        assertTrue(seconds(t0) < 30);

        HostileProfiles.longCommentConfig(dir.resolve(".dlprof-lint.yml"), 1_000_000);
        long t1 = System.nanoTime();
        HostileCli.Result ok = cli.run("trace.json", "--report", "json=out.json");
        assertTrue(ok.code() == 0 || ok.code() == 1, ok::toString);
        assertTrue(seconds(t1) < 60, "a 1 MB comment line parses in seconds: " + seconds(t1));
    }
}
