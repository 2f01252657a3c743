package dlproflint.cli.hostile;

import dlproflint.synth.HostileProfiles;
import dlproflint.synth.SyntheticProfile;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The {@code hostile} group's report (issue 28 acceptance): every failing case of the third campaign, its input built
 * here, run through the real launcher ({@code ./dlprof-lint}, its default options) as the users' process would be,
 * with TMPDIR a scratch folder. Measured for each: the exit code, the wall time (a case past {@link #HANG_SECONDS} is
 * a hang, killed), the peak resident memory of the whole process ({@code VmHWM} of the JVM the launcher execs: heap,
 * metaspace, code, native buffers alike), and every output it wrote (reports, stdout, stderr) scanned for spreadsheet
 * formula cells and raw control, bidi or separator characters. Printed as a table and written to
 * {@code target/hostile-group.txt}; the test fails unless: hangs 0, exits 70 0, peak RSS at most 512 MB for every
 * input under 20 MB, no formula cell and no raw control character in any output, every exit code the expected one,
 * and no scratch file left in TMPDIR.
 *
 * <p>Runs after packaging (the launcher needs the jar): the cli module's {@code hostile-group} execution in
 * {@code mvn verify}; two cases at a time.
 */
@Tag("hostile")
@Timeout(value = 3600, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostileGroupReport {
    static final int HANG_SECONDS = 150;
    static final long RSS_LIMIT_KB = 512 * 1024;
    static final long SMALL_INPUT = 20L << 20;

    @TempDir
    Path dir;
    Path tmp;
    Path launcher;

    /** One case: what runs, what it may exit with, and which files it writes. */
    record Case(String name, Path cwd, List<String> argv, Map<String, String> env, ProcessBuilder.Redirect stdin,
                Set<Integer> exits, List<String> outputs, long inputBytes, boolean headOne) {
        Case outputs(String... files) {
            return new Case(name, cwd, argv, env, stdin, exits, List.of(files), inputBytes, headOne);
        }

        Case env(String k, String v) {
            Map<String, String> e = new java.util.HashMap<>(env);
            e.put(k, v);
            return new Case(name, cwd, argv, e, stdin, exits, outputs, inputBytes, headOne);
        }

        Case stdin(Path from) {
            return new Case(name, cwd, argv, env, ProcessBuilder.Redirect.from(from.toFile()), exits, outputs, inputBytes, headOne);
        }

        Case intoHeadOne() {
            return new Case(name, cwd, argv, env, stdin, exits, outputs, inputBytes, true);
        }
    }

    record Measured(Case c, int exit, double seconds, long peakKb, boolean hang, int formulaCells, int rawControls, String err) {
    }

    private Case run(String name, long inputBytes, Set<Integer> exits, String... args) {
        List<String> argv = new ArrayList<>(List.of("bash", launcher.toString()));
        argv.addAll(List.of(args));
        return new Case(name, dir, argv, Map.of(), ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()), exits, List.of(),
                inputBytes, false);
    }

    /** Through {@code bash -c}: a resource limit set before the launcher runs ({@code exec}, so the pid is the JVM's). */
    private Case shell(String name, Set<Integer> exits, String script) {
        return new Case(name, dir, List.of("bash", "-c", script), Map.of(), ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()),
                exits, List.of(), 0, false);
    }

    private static long size(Path... files) throws IOException {
        long n = 0;
        for (Path f : files) n += Files.size(f);
        return n;
    }

    private static final Set<Integer> LINTED = Set.of(0, 1);
    private static final Set<Integer> USAGE = Set.of(2);
    private static final Set<Integer> REFUSED = Set.of(3);

    @Test
    void everyCaseIsBounded() throws Exception {
        String repo = System.getenv("DLPROF_LINT_REPO");
        assumeTrue(System.getProperty("dlproflint.hostileGroup") != null && repo != null,
                "runs after packaging (the cli module's hostile-group execution)");
        launcher = Path.of(repo, "dlprof-lint");
        assertTrue(Files.isRegularFile(Path.of(repo, "cli", "target", "dlprof-lint.jar")), "the CLI jar is built");
        tmp = Files.createDirectories(dir.resolve("tmp"));
        List<Case> cases = cases();
        List<Measured> results = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Measured>> futures = new ArrayList<>();
            for (Case c : cases) futures.add(pool.submit(() -> measure(c)));
            for (Future<Measured> f : futures) results.add(f.get());
        } finally {
            pool.shutdownNow();
        }
        String table = table(results);
        System.out.println(table);
        Files.writeString(Path.of("target", "hostile-group.txt"), table);

        long hangs = results.stream().filter(Measured::hang).count();
        long seventy = results.stream().filter(m -> m.exit() == 70).count();
        List<String> overMemory = results.stream().filter(m -> m.c().inputBytes() < SMALL_INPUT && m.peakKb() > RSS_LIMIT_KB)
                .map(m -> m.c().name() + " " + m.peakKb() / 1024 + " MB").toList();
        int formulas = results.stream().mapToInt(Measured::formulaCells).sum();
        int controls = results.stream().mapToInt(Measured::rawControls).sum();
        List<String> unexpected = results.stream().filter(m -> !m.hang() && !m.c().exits().contains(m.exit()))
                .map(m -> m.c().name() + ": exit " + m.exit() + " (expected " + m.c().exits() + "): " + m.err()).toList();
        assertEquals(0, hangs, table);
        assertEquals(0, seventy, table);
        assertEquals(List.of(), overMemory, "peak RSS over 512 MB for an input under 20 MB\n" + table);
        assertEquals(0, formulas, "formula cells\n" + table);
        assertEquals(0, controls, "raw control characters\n" + table);
        assertEquals(List.of(), unexpected, table);
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(List.of(), s.map(p -> p.getFileName().toString()).toList(), "scratch files left in TMPDIR");
        }
    }

    private Measured measure(Case c) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(c.argv()).directory(c.cwd().toFile()).redirectInput(c.stdin());
        Path err = dir.resolve("err-" + Math.abs(c.name().hashCode()) + ".txt");
        Path out = dir.resolve("out-" + Math.abs(c.name().hashCode()) + ".txt");
        pb.redirectError(err.toFile());
        if (!c.headOne()) pb.redirectOutput(out.toFile());
        pb.environment().put("TMPDIR", tmp.toString());
        pb.environment().put("DLPROF_LINT_CACHE_DIR", Path.of("target", "hostile-kjar-cache").toAbsolutePath().toString());
        pb.environment().remove("DLPROF_LINT_JAVA_OPTS");
        pb.environment().putAll(c.env());
        long t0 = System.nanoTime();
        Process p = pb.start();
        long[] peak = {0};
        Thread sampler = new Thread(() -> {
            while (p.isAlive()) {
                peak[0] = Math.max(peak[0], vmHwm(p.pid()));
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.setDaemon(true);
        sampler.start();
        if (c.headOne()) {
            // '| head -1': read one line, then close the pipe as head does
            try (InputStream in = p.getInputStream()) {
                for (int b; (b = in.read()) >= 0 && b != '\n'; ) {
                    // the first line
                }
            }
        }
        boolean ended = p.waitFor(HANG_SECONDS, TimeUnit.SECONDS);
        if (!ended) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        sampler.join(1000);
        double seconds = (System.nanoTime() - t0) / 1e9;
        String stderr = Files.exists(err) ? Files.readString(err, StandardCharsets.UTF_8) : "";
        int controls = rawControls(stderr, "\n");
        if (Files.exists(out)) controls += rawControls(Files.readString(out, StandardCharsets.UTF_8), "\n");
        int formulas = 0;
        for (String o : c.outputs()) {
            Path f = c.cwd().resolve(o);
            if (Files.isDirectory(f)) {
                try (Stream<Path> s = Files.list(f)) {
                    for (Path x : s.toList()) {
                        formulas += formulaCells(x);
                        controls += rawControls(x);
                    }
                }
            } else if (Files.isRegularFile(f)) {
                formulas += formulaCells(f);
                controls += rawControls(f);
            }
        }
        return new Measured(c, ended ? p.exitValue() : -1, seconds, peak[0], !ended, formulas, controls,
                dlproflint.findings.OneLine.of(stderr.lines().reduce((a, b) -> b).orElse("")));
    }

    private static long vmHwm(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("\\D", ""));
            }
        } catch (IOException | RuntimeException e) {
            // the process ended between two samples
        }
        return 0;
    }

    private static int formulaCells(Path f) throws IOException {
        if (!f.toString().endsWith(".csv")) return 0;
        int n = 0;
        for (List<String> row : NothingRunsTest.Csv.parse(Files.readString(f, StandardCharsets.UTF_8))) {
            for (String cell : row) if (NothingRunsTest.formulaStart(cell)) n++;
        }
        return n;
    }

    private static int rawControls(Path f) throws IOException {
        String name = f.toString();
        String allowed = name.endsWith(".csv") ? "\n\r" : name.endsWith(".html") ? "\n\t" : "\n";
        return rawControls(Files.readString(f, StandardCharsets.UTF_8), allowed);
    }

    static int rawControls(String text, String allowed) {
        int n = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean bad = c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || (c >= '\u202A' && c <= '\u202E')
                    || (c >= '\u2066' && c <= '\u2069') || c == '\u061C' || c == '\u200E' || c == '\u200F' || c == '\u2028'
                    || c == '\u2029' || c == '\uFEFF';
            if (bad && allowed.indexOf(c) < 0) n++;
        }
        return n;
    }

    private static String table(List<Measured> results) {
        StringBuilder b = new StringBuilder("hostile group (issue 28): ").append(results.size()).append(" cases through ./dlprof-lint\n");
        b.append(String.format(Locale.ROOT, "%-58s %5s %8s %9s %8s %8s  %s%n", "case", "exit", "wall s", "peak MB", "formula", "control", "last stderr line"));
        for (Measured m : results) {
            b.append(String.format(Locale.ROOT, "%-58s %5s %8.1f %9.0f %8d %8d  %s%n", m.c().name(), m.hang() ? "HANG" : m.exit(),
                    m.seconds(), m.peakKb() / 1024.0, m.formulaCells(), m.rawControls(),
                    m.err().length() > 110 ? m.err().substring(0, 110) + "..." : m.err()));
        }
        long hangs = results.stream().filter(Measured::hang).count();
        long seventy = results.stream().filter(r -> r.exit() == 70).count();
        long maxKb = results.stream().filter(r -> r.c().inputBytes() < SMALL_INPUT).mapToLong(Measured::peakKb).max().orElse(0);
        b.append(String.format(Locale.ROOT, "hangs %d, exits 70 %d, peak RSS max %.0f MB (inputs under 20 MB; limit 512 MB), "
                        + "formula cells %d, raw control characters %d%n", hangs, seventy, maxKb / 1024.0,
                results.stream().mapToInt(Measured::formulaCells).sum(), results.stream().mapToInt(Measured::rawControls).sum()));
        return b.toString();
    }

    // ---------------------------------------------------------------------------------------------- the cases

    private Path pack(String name, String manifestExtra, String... rules) throws IOException {
        Path p = Files.createDirectories(dir.resolve("packs").resolve(name));
        Files.writeString(p.resolve("pack.yaml"), "id: " + name + "\nversion: 1.0.0\ndescription: issue 28 case\n" + manifestExtra);
        StringBuilder drl = new StringBuilder("package site.t" + name.replace('-', '_') + ";\nimport dlproflint.facts.*;\n"
                + "import dlproflint.engine.*;\nimport dlproflint.findings.*;\nglobal dlproflint.engine.FindingSink findings;\n");
        for (String r : rules) drl.append(r.replace("PACK/", name + "/"));
        Files.writeString(p.resolve("r.drl"), drl.toString());
        return p;
    }

    static String rule(String name, String when, String then) {
        return "rule \"" + name + "\"\n    @id(\"PACK/" + name + "\") @name(\"N\") @severity(\"error\") @category(\"c\")"
                + " @since(\"1.0.0\") @summary(\"S.\")\nwhen\n" + when + "\nthen\n" + then + "\nend\n";
    }

    private static final String SPIN = "function boolean spin() { long i = 1; while (i != 0) { i = (i * 31 + 7) % 1000003 + 1; } return true; }\n";

    private Path script(String name, String body) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    private List<Case> cases() throws Exception {
        List<Case> out = new ArrayList<>();
        HostileInputs in = new HostileInputs(dir);
        Path trace = in.e2eTrace("trace.json");
        Path example = Path.of(System.getenv("DLPROF_LINT_REPO"), "examples", "resnet-like-fp32.sqlite");

        // readers: counts absurd for the file's size
        Path devices = HostileProfiles.kernelsOnDistinctDevices(dir.resolve("devices.sqlite"), 100_000);
        out.add(run("nsys: 100,000 kernels on 100,000 device ids", size(devices), REFUSED, "devices.sqlite", "--report", "json=devices.json"));
        Path nested = HostileProfiles.nestedNvtx(dir.resolve("nested.sqlite"), 300_000);
        out.add(run("nsys: 300,000 strictly nested NVTX ranges", size(nested), LINTED, "nested.sqlite", "--report", "json=nested.json")
                .outputs("nested.json"));
        Path steps = HostileProfiles.tinySteps(dir.resolve("steps.json.gz"), 200_000);
        out.add(run("kineto: 200,000 ProfilerStep#N of 9 us", size(steps), LINTED, "steps.json.gz", "--report", "json=steps.json"));
        Path a = HostileProfiles.distinctKernelNames(dir.resolve("names-a.json.gz"), 200_000, "base_kernel_");
        Path b = HostileProfiles.distinctKernelNames(dir.resolve("names-b.json.gz"), 200_000, "head_kernel_");
        out.add(run("compare: 200,000 disjoint kernel names each", size(a, b), LINTED, "compare", "names-a.json.gz", "names-b.json.gz",
                "--report", "json=compare.json"));
        Path wal = HostileProfiles.walOnlyKernels(dir.resolve("wal.sqlite"), 20);
        out.add(run("nsys: kernels committed only in the -wal file", size(wal), LINTED, "wal.sqlite", "--report", "json=wal.json"));
        Path nan = HostileProfiles.nanTrace(dir.resolve("nan.json"));
        out.add(run("kineto: NaN duration", size(nan), REFUSED, "nan.json"));
        Path dldb = Corpus.file("mohanadodema-dlprof/w_Relu/dlprof_dldb_1.sqlite");
        in.sql(dldb, "generated.sqlite", "ALTER TABLE dictionary RENAME TO dictionary_rows",
                "CREATE TABLE dictionary (id INTEGER PRIMARY KEY, string_stored TEXT, string TEXT GENERATED ALWAYS AS"
                        + " (printf('%.*c', 200000000, 'x')) VIRTUAL)",
                "INSERT INTO dictionary (id, string_stored) SELECT id, string FROM dictionary_rows",
                "DROP TABLE dictionary_rows");
        out.add(run("dldb: dictionary.string generated, 200 MB per row", size(dir.resolve("generated.sqlite")), REFUSED, "generated.sqlite"));

        // jobs claiming absurd world sizes
        for (String[] j : new String[][] {{"max", "0", "1", Integer.toString(Integer.MAX_VALUE), Integer.toString(Integer.MAX_VALUE)},
                {"odd", "-5", "\"zero\"", "-1", "1e300"}, {"many", "0", "1", "50000000", "50000000"}}) {
            Path jd = Files.createDirectories(dir.resolve("job-" + j[0]));
            HostileProfiles.rankTrace(jd.resolve("rank-0.json"), j[1], j[3]);
            HostileProfiles.rankTrace(jd.resolve("rank-1.json"), j[2], j[4]);
            out.add(run("job: 2 ranks " + j[1] + "/" + j[2] + " claiming world size " + j[3] + "/" + j[4], 0, LINTED, "job", "job-" + j[0],
                    "--report", "json=job-" + j[0] + ".json"));
        }

        // waits
        Path conf = Files.createDirectories(dir.resolve("conf"));
        Files.copy(trace, conf.resolve("trace.json"));
        HostileProfiles.longCommentConfig(conf.resolve(".dlprof-lint.yml"), 10 << 20);
        Case longConfig = run(".dlprof-lint.yml of one 10 MB comment line", 10 << 20, USAGE, "trace.json");
        out.add(new Case(longConfig.name(), conf, longConfig.argv(), Map.of(), longConfig.stdin(), USAGE, List.of(), 10 << 20, false));
        out.add(run("'-' fed by an endless /dev/zero", 0, REFUSED, "-").env("DLPROF_LINT_STDIN_LIMIT", "256M").stdin(Path.of("/dev/zero")));
        out.add(run("'-' with standard input closed", 0, REFUSED, "-"));
        in.fifo("nobody-reads.json");
        out.add(run("--report json=FIFO that nothing reads", size(trace), USAGE, "trace.json", "--report", "json=nobody-reads.json")
                .env("DLPROF_LINT_OUTPUT_TIMEOUT", "3"));
        byte[] head = "NVIDIA Tegra Profiler Report".getBytes(StandardCharsets.US_ASCII);
        Files.write(dir.resolve("run.nsys-rep"), java.util.Arrays.copyOf(head, 4096));
        Path hangs = script("nsys-hangs", "exec sleep 100000");
        out.add(run(".nsys-rep: --nsys that never exits", 4096, REFUSED, "run.nsys-rep", "--nsys", hangs.toString(), "--read-timeout", "3"));
        Path floods = script("nsys-floods", "head -c 3000000000 /dev/zero\nhead -c 500000000 /dev/zero >&2\nexit 1");
        out.add(run(".nsys-rep: --nsys writing 3 GB and 500 MB", 4096, REFUSED, "run.nsys-rep", "--nsys", floods.toString()));

        // site packs
        Path spin = pack("spin", "", SPIN + rule("stuck", "    eval(spin())", "    int x = 1;"));
        out.add(run("site rule: eval busy loop at load, --rule-timeout 5", 0, USAGE, "trace.json", "--rules", spin.toString(), "--rule-timeout", "5"));
        Path swallow = pack("swallow", "trusted: true\n", "function boolean swallow() { while (true) { try { Thread.sleep(100000); }"
                + " catch (InterruptedException e) { } } }\n" + rule("stuck", "    eval(swallow())", "    int x = 1;"));
        out.add(run("site rule: eval swallowing interrupts at load", 0, USAGE, "trace.json", "--rules", swallow.toString(), "--rule-timeout", "5"));
        Path sleepy = pack("sleepy", "trusted: true\n", "function boolean sleepy() { for (int i = 0; ; i++) { try { Thread.sleep(50); }"
                + " catch (InterruptedException e) { i--; } } }\n" + rule("stuck", "    eval(sleepy())", "    int x = 1;"));
        out.add(run("site rule: eval sleep loop ignoring interrupts", 0, USAGE, "trace.json", "--rules", sleepy.toString(), "--rule-timeout", "5"));
        out.add(run("rules list on the eval-at-load pack", 0, Set.of(0), "rules", "list", "--rules", spin.toString(), "--no-config"));
        out.add(run("rules explain on the eval-at-load pack", 0, Set.of(0), "rules", "explain", "spin/stuck", "--rules", spin.toString(),
                "--no-config"));
        Path grow = pack("grow", "", "declare Tick\n    n : long\nend\n" + rule("grow", "    $p : ProfileInfo()\n"
                + "    $n : Number() from accumulate(Tick(), count(1))", "    insert(new Tick($n.longValue()));"));
        out.add(run("site rule re-firing on its own inserts", 0, USAGE, "trace.json", "--rules", grow.toString()));
        Path alloc = pack("alloc", "", rule("alloc", "    ProfileInfo()",
                "    java.util.List<long[]> l = new java.util.ArrayList<>(); while (true) { l.add(new long[1 << 20]); }"));
        out.add(run("site rule allocating without end", 0, USAGE, "trace.json", "--rules", alloc.toString()));
        Path busy = pack("busy", "", rule("busy", "    ProfileInfo()", "    long i = 1; while (i != 0) { i = (i * 31 + 7) % 1000003 + 1; }"));
        out.add(run("site rule busy for ever under the default rule timeout", 0, USAGE, "trace.json", "--rules", busy.toString()));
        for (String[] x : new String[][] {{"exit", "System.exit(0);"}, {"halt", "Runtime.getRuntime().halt(0);"},
                {"passwd", "findings.report(kcontext, Subject.profile(), java.nio.file.Files.readString(java.nio.file.Path.of(\"/etc/passwd\")),"
                        + " \"\", java.util.Map.of());"},
                {"shell", "new ProcessBuilder(\"sh\", \"-c\", \"touch pwned\").start();"},
                {"socket", "new java.net.Socket(\"127.0.0.1\", 9).close();"},
                {"offheap", "java.nio.ByteBuffer.allocateDirect(3 << 30);"}}) {
            Path p = pack("deny-" + x[0], "", rule("r", "    ProfileInfo()", "    " + x[1]));
            out.add(run("site rule calling " + x[1].replaceAll("\\(.*", "(...)"), 0, USAGE, "trace.json", "--rules", p.toString()));
        }
        Path exitTrusted = pack("exit-trusted", "trusted: true\n", rule("r", "    ProfileInfo()", "    System.exit(0);"));
        out.add(run("trusted rule: System.exit(0) on a failing profile", size(example), USAGE, example.toString(), "--rules",
                exitTrusted.toString()));
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 3000; i++) many.append(rule("r" + i, "    ProfileInfo()", "    int x = " + i + ";"));
        out.add(run("site pack: one .drl of 3,000 rules", 0, USAGE, "trace.json", "--rules", pack("many", "", many.toString()).toString()));
        out.add(run("site pack: a condition of 20,000 + terms", 0, USAGE, "trace.json", "--rules",
                pack("terms", "", rule("t", "    eval(" + "1+".repeat(20_000) + "1 > 0)", "    int x = 1;")).toString()));
        out.add(run("site pack: 5,000 nested parentheses", 0, USAGE, "trace.json", "--rules",
                pack("parens", "", rule("t", "    eval(" + "(".repeat(5000) + "1" + ")".repeat(5000) + " > 0)", "    int x = 1;")).toString()));
        Path huge = pack("huge", "", rule("x", "    ProfileInfo()", "    int x = 1;"));
        Files.writeString(huge.resolve("pack.yaml"), "id: huge\nversion: 1.0.0\ndescription: " + "d".repeat(5 << 20) + "\n");
        out.add(run("site pack: pack.yaml with a 5 MB description", 0, USAGE, "trace.json", "--rules", huge.toString()));
        out.add(run("site pack: helpUri javascript:", 0, USAGE, "trace.json", "--rules",
                pack("js", "helpUri: \"javascript:alert(1)//{name}\"\n", rule("x", "    ProfileInfo()", "    int x = 1;")).toString()));
        Path fifoRule = pack("fifo-rule", "", rule("x", "    ProfileInfo()", "    int x = 1;"));
        new HostileInputs(fifoRule).fifo("more.drl");
        out.add(run("site pack: a rule file that is a FIFO", 0, USAGE, "trace.json", "--rules", fifoRule.toString()));

        // sizes: 100,000 findings in every format, a text report into '| head -1'
        Path k100k = HostileProfiles.distinctKernelNames(dir.resolve("k100k.json.gz"), 100_000, "kern_");
        Path every = pack("every", "", rule("kernel", "    $k : KernelFact()", "    findings.report(kcontext, Subject.kernel($k.name()),"
                + " Message.of(\"ran\", \"kernel\", $k.name()), \"look\", Evidence.of(\"ns\", $k.gpuTime().total()));")
                .replace("@summary(\"S.\")", "@summary(\"S.\") @messages({\"ran = kernel {kernel} ran\"})"));
        // the built-in packs need about 17 s of rule time on 100,000 distinct kernels and ops on a busy 2-core machine: the
        // limit is raised here, as the cases are about what is written and how much memory that takes
        out.add(run("a rule reporting each of 100,000 kernels: every report", size(k100k), LINTED, "k100k.json.gz", "--rules", every.toString(),
                "--rule-timeout", "120",
                "--report", "markdown=k.md", "--report", "html=k.html", "--report", "sarif=k.sarif", "--report", "json=k.json",
                "--report", "csv=k.csv").outputs("k.md", "k.html", "k.sarif", "k.json", "k.csv"));
        out.add(run("text report of 100,000 findings into '| head -1'", size(k100k), Set.of(0, 1, 2), "k100k.json.gz", "--rules",
                every.toString(), "--rule-timeout", "120").intoHeadOne());

        // injection: hostile kernel names in every report, the DLProf-format CSV and JSON reports included
        Path names = dir.resolve("names.sqlite");
        try (SyntheticProfile sp = SyntheticProfile.options().seed(28).gpus(dlproflint.synth.GpuModel.A100_SXM4_40GB, 1).open(names)) {
            List<String> hostile = List.of("\uFF1D1+1", "\n=1+1", "=HYPERLINK(\"http://x\")", "@SUM(1)", "+cmd", "-2+3",
                    "a\u061Cb\u200Fc\u2028d\u2029e\u202Ef\u2066g", "tab\there", "esc\u001b[2J");
            for (int s = 0; s < 4; s++) {
                sp.push("ProfilerStep#" + (s + 1));
                for (String n : hostile) sp.push(n).kernel(n, 50_000).pop();
                sp.pop();
            }
        }
        out.add(run("hostile names: every lint report", size(names), LINTED, "names.sqlite", "--report", "json=n.json",
                "--report", "sarif=n.sarif", "--report", "csv=n.csv", "--report", "markdown=n.md", "--report", "text=n.txt",
                "--report", "codequality=n.cq.json", "--report", "html=n.html")
                .outputs("n.json", "n.sarif", "n.csv", "n.md", "n.txt", "n.cq.json", "n.html"));
        out.add(run("hostile names: report --reports all --formats csv,json", size(names), Set.of(0), "report", "names.sqlite",
                "--reports", "all", "--formats", "csv,json", "--output-path", "dlprof-out").outputs("dlprof-out"));

        // limits of the process
        out.add(run("-Xmx64m on 300,000 nested NVTX ranges", size(nested), Set.of(0, 1, 2, 3), "nested.sqlite")
                .env("DLPROF_LINT_JAVA_OPTS", "-Xmx64m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"));
        out.add(run("-Xmx16m", size(example), Set.of(0, 1, 2, 3), example.toString())
                .env("DLPROF_LINT_JAVA_OPTS", "-Xmx16m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"));
        out.add(shell("ulimit -v 128M", USAGE, "ulimit -v 131072; exec bash " + launcher + " " + example));
        out.add(shell("ulimit -v 1G", LINTED, "ulimit -v 1048576; exec bash " + launcher + " " + example));
        // RLIMIT_NPROC binds users other than root: as root, the case runs as nobody
        String asUser = "root".equals(System.getProperty("user.name"))
                ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
        out.add(shell("ulimit -u 1 (a user other than root)", USAGE, asUser + "bash -c 'ulimit -u 1; exec bash " + launcher + " --version'"));
        out.add(shell("ulimit -f 1 MB while writing a larger report", USAGE,
                "ulimit -f 2048; exec bash " + launcher + " k100k.json.gz --rules " + every + " --rule-timeout 120 --report html=big.html"));

        // files and names
        Path deep = dir;
        while (deep.toString().getBytes(StandardCharsets.UTF_8).length < 540) deep = deep.resolve("d".repeat(90));
        Files.createDirectories(deep);
        Path longPath = Files.copy(example, deep.resolve("p.sqlite"));
        out.add(run("a valid export at a " + longPath.toString().length() + "-byte path", size(example), LINTED, longPath.toString()));
        Files.copy(trace, dir.resolve("-looks-like-option.json"));
        out.add(run("'-looks-like-option.json' after --", size(trace), LINTED, "--report", "json=opt.json", "--", "-looks-like-option.json"));
        Files.writeString(dir.resolve("team.yml"), "packs: {}\n");
        out.add(run("--report json= the --config file", size(trace), USAGE, "trace.json", "--config", "team.yml", "--report", "json=team.yml"));
        out.add(run("--report json= the pack.yaml of --rules", size(trace), USAGE, "trace.json", "--rules", spin.toString(),
                "--report", "json=" + spin.resolve("pack.yaml")));
        Files.writeString(dir.resolve("known.json"), "{\"tool\": \"dlprof-lint 0.1.0\", \"schemaVersion\": 1, \"findings\": []}\n");
        out.add(run("--report json= the --baseline file", size(trace), USAGE, "trace.json", "--baseline", "known.json",
                "--report", "json=known.json"));
        Files.createSymbolicLink(dir.resolve("alias.json"), dir.resolve("target.json"));
        out.add(run("two --reports, one a link to the other", size(trace), USAGE, "trace.json", "--report", "json=target.json",
                "--report", "sarif=alias.json"));
        Path loops = Files.createDirectories(dir.resolve("loops"));
        Files.createSymbolicLink(loops.resolve("a.json"), loops.resolve("b.json"));
        Files.createSymbolicLink(loops.resolve("b.json"), loops.resolve("a.json"));
        out.add(run("a folder holding only symlink loops", 0, REFUSED, "loops"));
        Files.writeString(dir.resolve("dup.yml"), "rules:\n  disable: []\nrules:\n  enable: []\n");
        out.add(run("a duplicate rules: key", size(trace), USAGE, "trace.json", "--config", "dup.yml"));
        Files.writeString(dir.resolve("longkey.yml"), "k".repeat(100_000) + ": 1\n");
        out.add(run("a 100,000-character key", size(trace), USAGE, "trace.json", "--config", "longkey.yml"));
        for (String kind : List.of("fifo", "folder", "devzero")) {
            Path w = Files.createDirectories(dir.resolve("cfg-" + kind));
            Files.copy(trace, w.resolve("trace.json"));
            Path cfg = w.resolve(".dlprof-lint.yml");
            switch (kind) {
                case "fifo" -> new HostileInputs(w).fifo(".dlprof-lint.yml");
                case "folder" -> Files.createDirectories(cfg);
                default -> Files.createSymbolicLink(cfg, Path.of("/dev/zero"));
            }
            Case c = run("an implicit .dlprof-lint.yml that is a " + kind, size(trace), USAGE, "trace.json");
            out.add(new Case(c.name(), w, c.argv(), Map.of(), c.stdin(), USAGE, List.of(), c.inputBytes(), false));
        }
        Path pipes = Files.createDirectories(dir.resolve("with-pipe"));
        Files.copy(trace, pipes.resolve("a.json"));
        new HostileInputs(pipes).fifo("b.json");
        out.add(run("a named pipe inside a folder", size(trace), LINTED, "with-pipe"));
        Collections.shuffle(out, new java.util.Random(28)); // the slow ones spread over both runners
        return out;
    }
}
