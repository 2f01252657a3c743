package dlproflint.cli.hostile;

import dlproflint.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Issue 7 item 2 and issue 17: mutates real corpus files (an nsys SQLite export, a DLProf database, a Kineto
 * {@code .json.gz}) and lints each mutant through the real command, asserting the same contract as
 * {@link BadInputCliTest} (exit 3 with one line, or a usable report; never 70, no stack trace, bounded
 * time, input unchanged). Besides byte-level mutations, structure-aware ones reach deeper: SQLite tables
 * replaced by views, repeated rows and thousands of GPUs ({@link SqlMutator}); huge arrays and repeated
 * events in traces ({@link TraceMutator}).
 *
 * <p>Deterministic: iteration {@code i} of source {@code s} uses
 * {@code new Random(new SplittableRandom(seed * 1_000_003 + s * 10_007 + i).nextLong())},
 * so a failing case name ({@code kineto #17: flip 3 bytes ...}) is reproduced by the same seed and iteration
 * count. A mutant that breaks the contract is kept in {@code target/fuzz-failures/} for a regular test.
 *
 * <p>CI runs {@value #DEFAULT_ITERATIONS} iterations per source with the fixed seed, within a time budget of
 * {@value #DEFAULT_SECONDS} s (the mutants not started by then are not made; the count run is printed). Longer runs:
 * {@code DLPROF_LINT_FUZZ_ITERATIONS=10000 DLPROF_LINT_FUZZ_SEED=28 DLPROF_LINT_FUZZ_SECONDS=0 mvn -o -q -B -pl cli test
 * -Dtest='dlproflint/cli/hostile/FuzzCliTest'} (0: no budget; see docs/testing.md).
 */
@org.junit.jupiter.api.Tag("hostile")
class FuzzCliTest {
    static final int DEFAULT_ITERATIONS = 12;
    static final int DEFAULT_SECONDS = 180;
    /** A hang detector, not a speed target: a case that takes ~15 s alone takes minutes beside a full build. */
    private static final Duration LIMIT = Duration.ofSeconds(300);

    @TempDir
    static Path dir;
    /** "source outcome" -> count, printed after the run (how much of each reader the mutants reached). */
    private static final Map<String, Integer> OUTCOMES = new java.util.concurrent.ConcurrentSkipListMap<>();

    private static final java.util.concurrent.atomic.AtomicInteger DONE = new java.util.concurrent.atomic.AtomicInteger();
    private static final java.util.concurrent.atomic.AtomicInteger VIOLATIONS = new java.util.concurrent.atomic.AtomicInteger();
    private static final long STARTED = System.nanoTime();

    @org.junit.jupiter.api.AfterAll
    static void printOutcomes() {
        System.out.println("fuzz outcomes: " + OUTCOMES);
        System.out.println(progressLine());
    }

    /** Every {@value #PROGRESS_EVERY} mutants a line on stdout: a long run stopped early still has its figure. */
    private static final int PROGRESS_EVERY = 250;

    private static void progress() {
        if (DONE.incrementAndGet() % PROGRESS_EVERY == 0) System.out.println(progressLine());
    }

    private static String progressLine() {
        return "fuzz progress: " + DONE.get() + " mutants, " + VIOLATIONS.get() + " violations, "
                + (System.nanoTime() - STARTED) / 1_000_000_000L + " s";
    }

    /**
     * One test per mutant, made lazily: each mutant is built from its seed inside its own test and dropped
     * after it, so a run of thousands of mutants holds one at a time (building them all first held
     * gigabytes of mutated copies).
     */
    @TestFactory
    Stream<DynamicTest> fuzz() throws IOException {
        int iterations = intEnv("DLPROF_LINT_FUZZ_ITERATIONS", DEFAULT_ITERATIONS);
        long seed = intEnv("DLPROF_LINT_FUZZ_SEED", 20261122);
        int budget = intEnv("DLPROF_LINT_FUZZ_SECONDS", DEFAULT_SECONDS);
        // DLPROF_LINT_FUZZ_SHARD=k/n: only iterations i with i % n == k (long runs in several processes; same mutants)
        String shardSpec = System.getenv().getOrDefault("DLPROF_LINT_FUZZ_SHARD", "0/1");
        int shard = Integer.parseInt(shardSpec.substring(0, shardSpec.indexOf('/')));
        int shards = Integer.parseInt(shardSpec.substring(shardSpec.indexOf('/') + 1));
        long deadline = budget <= 0 ? Long.MAX_VALUE : System.nanoTime() + budget * 1_000_000_000L;
        Map<String, Source> sources = new LinkedHashMap<>();
        source(sources, "nsys", "mohanadodema-dlprof/w_Relu/nsys_profile.sqlite", ".sqlite", false);
        source(sources, "dldb", "mohanadodema-dlprof/w_Relu/dlprof_dldb_1.sqlite", ".sqlite", false);
        source(sources, "kineto", "hta/tests/data/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz",
                ".json.gz", true);
        if (sources.isEmpty()) throw new TestAbortedException("no corpus files to fuzz");
        HostileCli cli = new HostileCli(dir);
        List<String> names = new ArrayList<>(sources.keySet());
        System.out.println("fuzz: " + iterations * names.size() + " mutants (" + iterations + " per source, seed " + seed
                + (budget > 0 ? ", time budget " + budget + " s" : "") + ")");
        // Iteration-major (nsys #0, dldb #0, kineto #0, nsys #1, ...): a long run that is stopped early has
        // covered every source evenly, and its progress lines say how far it got.
        // the stream is consumed one test at a time: past the budget no further mutant is made
        return IntStream.range(0, iterations).filter(i -> i % shards == shard).boxed().takeWhile(i -> System.nanoTime() < deadline)
                .flatMap(i -> IntStream.range(0, names.size()).mapToObj(si -> {
            String source = names.get(si);
            Source src = sources.get(source);
            String name = source + " #" + i;
            return DynamicTest.dynamicTest(name, () -> {
                // source s (1-based) and iteration i seed the mutant: a failure is reproduced by its name and seed.
                // The seed is mixed first: java.util.Random's first draws for consecutive seeds are nearly equal,
                // so every iteration would pick the same kind of mutation.
                Random rnd = new Random(new java.util.SplittableRandom(seed * 1_000_003L + (si + 1) * 10_007L + i).nextLong());
                Path file = dir.resolve(source + "-" + i + src.suffix());
                Mutant m = mutate(src, rnd);
                Files.write(file, m.bytes());
                String what = name + ": " + m.description();
                try {
                    HostileCli.Outcome o = assertTimeoutPreemptively(LIMIT, () -> cli.lintAndCheck(file), what);
                    OUTCOMES.merge(source + " " + m.family() + " " + o, 1, Integer::sum);
                } catch (AssertionError | RuntimeException ex) {
                    VIOLATIONS.incrementAndGet();
                    keep(file, what);
                    throw new AssertionError(what, ex);
                } finally {
                    progress();
                    Files.deleteIfExists(file);
                    Files.deleteIfExists(cli.reportOf(file));
                }
            });
        }));
    }

    /**
     * The mutant {@code rnd} chooses. SQLite sources: a quarter change the structure (views, repeated rows,
     * many GPUs), the rest bytes. Kineto: bytes of the gzip, bytes of the JSON inside it (they reach the
     * parser, not just gzip's CRC check), odd JSON values (they reach the trace reader), and two fifths
     * structure (huge arrays, repeated events).
     */
    private Mutant mutate(Source src, Random rnd) throws IOException {
        byte[] original = src.bytes();
        if (!src.gzip()) {
            return rnd.nextInt(4) == 3 ? SqlMutator.mutate(original, rnd, dir.resolve("sql-mutant" + src.suffix())).in("sql")
                    : Mutator.mutate(original, rnd).in("bytes");
        }
        byte[] inflated = src.inflated();
        return switch (rnd.nextInt(5)) {
            case 1 -> Mutator.mutate(inflated, rnd).regzipped().in("bytes-in-gzip");
            case 2 -> JsonMutator.mutate(inflated, rnd).regzipped().in("json-values");
            case 3, 4 -> TraceMutator.mutate(inflated, rnd).regzipped().in("structure");
            default -> Mutator.mutate(original, rnd).in("bytes");
        };
    }

    /** A corpus file to mutate; its bytes (and, gzipped, its JSON) are read once and shared by its mutants. */
    record Source(Path path, String suffix, boolean gzip, byte[][] cache) {
        Source(Path path, String suffix, boolean gzip) {
            this(path, suffix, gzip, new byte[2][]);
        }

        synchronized byte[] bytes() throws IOException {
            if (cache[0] == null) cache[0] = Files.readAllBytes(path);
            return cache[0];
        }

        synchronized byte[] inflated() throws IOException {
            if (cache[1] == null) cache[1] = gunzip(bytes());
            return cache[1];
        }
    }

    /** One mutated file, what was done to it, and by which mutator family (for the outcome counts). */
    record Mutant(byte[] bytes, String description, String family) {
        Mutant(byte[] bytes, String description) {
            this(bytes, description, "");
        }

        Mutant regzipped() throws IOException {
            return new Mutant(HostileInputs.gzip(bytes), "inside gzip: " + description, family);
        }

        Mutant in(String mutatorFamily) {
            return new Mutant(bytes, description, mutatorFamily);
        }
    }


    /** The mutations: byte flips, truncation, duplication and deletion of a chunk, or two of them. */
    static final class Mutator {
        private Mutator() {
        }

        static Mutant mutate(byte[] in, Random rnd) {
            Mutant m = once(in, rnd);
            if (rnd.nextInt(4) == 0) {
                Mutant second = once(m.bytes(), rnd);
                m = new Mutant(second.bytes(), m.description() + ", then " + second.description());
            }
            return m;
        }

        private static Mutant once(byte[] in, Random rnd) {
            int n = in.length;
            if (n < 2) return new Mutant(in.clone(), "unchanged (too short)");
            switch (rnd.nextInt(4)) {
                case 0 -> {
                    byte[] b = in.clone();
                    int flips = 1 + rnd.nextInt(16);
                    for (int k = 0; k < flips; k++) b[rnd.nextInt(n)] ^= (byte) (1 + rnd.nextInt(255));
                    return new Mutant(b, "flip " + flips + " bytes");
                }
                case 1 -> {
                    int at = rnd.nextInt(n);
                    return new Mutant(java.util.Arrays.copyOf(in, at), "truncate at " + at);
                }
                case 2 -> {
                    int from = rnd.nextInt(n);
                    int len = Math.min(n - from, 1 + rnd.nextInt(8192));
                    int to = rnd.nextInt(n);
                    ByteArrayOutputStream b = new ByteArrayOutputStream(n + len);
                    b.write(in, 0, to);
                    b.write(in, from, len);
                    b.write(in, to, n - to);
                    return new Mutant(b.toByteArray(), "duplicate " + len + " bytes from " + from + " at " + to);
                }
                default -> {
                    int from = rnd.nextInt(n);
                    int len = Math.min(n - from, 1 + rnd.nextInt(8192));
                    ByteArrayOutputStream b = new ByteArrayOutputStream(n);
                    b.write(in, 0, from);
                    b.write(in, from + len, n - from - len);
                    return new Mutant(b.toByteArray(), "delete " + len + " bytes at " + from);
                }
            }
        }
    }

    /**
     * Keeps the JSON valid and replaces 1-20 values (anywhere in the tree) with odd ones: null, negative,
     * above 2^63, NaN-like text, an empty or markup string, an array or object where a scalar was.
     */
    static final class JsonMutator {
        private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
        private static final String[] ODD = {"null", "-1", "18446744073709551615", "1e308", "\"NaN\"", "\"\"",
                "\"<script>x</script>\"", "[]", "{}", "true", "-9223372036854775808", "0"};

        private JsonMutator() {
        }

        static Mutant mutate(byte[] in, Random rnd) throws IOException {
            com.fasterxml.jackson.databind.JsonNode root = JSON.readTree(in);
            List<com.fasterxml.jackson.databind.node.ContainerNode<?>> parents = new ArrayList<>();
            collect(root, parents);
            int changes = 1 + rnd.nextInt(20);
            for (int k = 0; k < changes && !parents.isEmpty(); k++) {
                var parent = parents.get(rnd.nextInt(parents.size()));
                var value = JSON.readTree(ODD[rnd.nextInt(ODD.length)]);
                if (parent instanceof com.fasterxml.jackson.databind.node.ObjectNode o && o.size() > 0) {
                    List<String> names = new ArrayList<>();
                    o.fieldNames().forEachRemaining(names::add);
                    o.set(names.get(rnd.nextInt(names.size())), value);
                } else if (parent instanceof com.fasterxml.jackson.databind.node.ArrayNode a && a.size() > 0) {
                    a.set(rnd.nextInt(a.size()), value);
                }
            }
            return new Mutant(JSON.writeValueAsBytes(root), "replace " + changes + " JSON values");
        }

        private static void collect(com.fasterxml.jackson.databind.JsonNode n, List<com.fasterxml.jackson.databind.node.ContainerNode<?>> out) {
            if (n instanceof com.fasterxml.jackson.databind.node.ContainerNode<?> c) {
                out.add(c);
                n.forEach(child -> collect(child, out));
            }
        }
    }

    /**
     * Structure-aware SQLite mutants (issue 17): a table the reader queries replaced by a view (an endless
     * recursive one, or a plain copy), an unrelated view added, a table's rows repeated up to 64 times, or
     * thousands of GPU rows. Applied with SQL to a copy of the original bytes.
     */
    static final class SqlMutator {
        private static final List<String> TABLES = List.of("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS",
                "StringIds", "TARGET_INFO_GPU", "op_nodes", "dictionary", "read_only_kernels", "model_summary", "iteration_list");

        private SqlMutator() {
        }

        static Mutant mutate(byte[] original, Random rnd, Path scratch) throws IOException {
            Files.write(scratch, original);
            List<String> present;
            try {
                present = HostileInputs.tables(scratch);
            } catch (java.sql.SQLException e) {
                return new Mutant(original, "unchanged (no tables)");
            }
            List<String> candidates = TABLES.stream().filter(present::contains).toList();
            if (candidates.isEmpty()) return new Mutant(original, "unchanged (no known table)");
            String t = candidates.get(rnd.nextInt(candidates.size()));
            String[] sql;
            String what;
            switch (rnd.nextInt(8)) {
                case 5 -> {
                    // issue 28: a string table's text replaced by a generated column computed when read
                    String[] strings = present.contains("StringIds") ? new String[] {"StringIds", "id", "value"}
                            : present.contains("dictionary") ? new String[] {"dictionary", "id", "string"} : null;
                    if (strings == null) return new Mutant(original, "unchanged (no string table)");
                    int mb = 1 + rnd.nextInt(200);
                    sql = new String[] {"ALTER TABLE \"" + strings[0] + "\" RENAME TO \"" + strings[0] + "_rows\"",
                            "CREATE TABLE \"" + strings[0] + "\" (\"" + strings[1] + "\" INTEGER PRIMARY KEY, kept TEXT, \"" + strings[2]
                                    + "\" TEXT GENERATED ALWAYS AS (printf('%.*c', " + mb * 1_000_000 + ", 'x')) VIRTUAL)",
                            "INSERT INTO \"" + strings[0] + "\" (\"" + strings[1] + "\", kept) SELECT \"" + strings[1] + "\", \""
                                    + strings[2] + "\" FROM \"" + strings[0] + "_rows\""};
                    what = strings[0] + "." + strings[2] + " a generated column of " + mb + " MB per row";
                }
                case 6 -> {
                    // issue 28: kernels on as many distinct device ids as there are kernels
                    if (!present.contains("CUPTI_ACTIVITY_KIND_KERNEL")) return new Mutant(original, "unchanged (no kernel table)");
                    sql = new String[] {"UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = rowid"};
                    what = "every kernel on its own device id";
                }
                case 7 -> {
                    // issue 28: up to 300,000 strictly nested NVTX ranges
                    if (!present.contains("NVTX_EVENTS")) return new Mutant(original, "unchanged (no NVTX table)");
                    int depth = 1 + rnd.nextInt(300_000);
                    sql = new String[] {"INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) WITH RECURSIVE d(i) AS"
                            + " (SELECT 0 UNION ALL SELECT i + 1 FROM d WHERE i < " + (depth - 1) + ") SELECT 1000 + i * 10, 1000 + "
                            + (20L * depth) + " - i * 10, 59, 'nest', (SELECT globalTid FROM NVTX_EVENTS LIMIT 1) FROM d"};
                    what = depth + " nested NVTX ranges";
                }
                case 0 -> {
                    sql = HostileInputs.endlessView(t);
                    what = t + " replaced by an endless view";
                }
                case 1 -> {
                    sql = new String[] {"ALTER TABLE \"" + t + "\" RENAME TO \"" + t + "_rows\"",
                            "CREATE VIEW \"" + t + "\" AS SELECT * FROM \"" + t + "_rows\""};
                    what = t + " replaced by a plain view";
                }
                case 2 -> {
                    sql = new String[] {"CREATE VIEW extra_view AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT i FROM r"};
                    what = "an unrelated endless view added";
                }
                case 3 -> {
                    int doublings = 1 + rnd.nextInt(6);
                    List<String> st = new java.util.ArrayList<>();
                    for (int k = 0; k < doublings; k++) st.add("INSERT INTO \"" + t + "\" SELECT * FROM \"" + t + "\"");
                    sql = st.toArray(String[]::new);
                    what = t + " rows repeated " + (1 << doublings) + " times";
                }
                default -> {
                    if (!present.contains("TARGET_INFO_GPU")) return new Mutant(original, "unchanged (no GPU table)");
                    int n = 1 + rnd.nextInt(20_000);
                    sql = HostileInputs.manyGpuRows(n);
                    what = n + " GPU rows added";
                }
            }
            try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + scratch);
                 java.sql.Statement st = c.createStatement()) {
                for (String q : sql) st.execute(q);
            } catch (java.sql.SQLException e) {
                what = what + " (partly: " + e.getMessage().lines().findFirst().orElse("") + ")";
            }
            return new Mutant(Files.readAllBytes(scratch), what);
        }
    }

    /**
     * Structure-aware trace mutants (issue 17): a huge array where the reader expects a small one
     * ({@code deviceProperties}, an event's {@code Input Dims}, a nested value in {@code args}), or one
     * event repeated up to 200 000 times. The JSON stays valid; the gzip stays small.
     */
    static final class TraceMutator {
        private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

        private TraceMutator() {
        }

        static Mutant mutate(byte[] inflated, Random rnd) throws IOException {
            com.fasterxml.jackson.databind.JsonNode root = JSON.readTree(inflated);
            if (!(root instanceof com.fasterxml.jackson.databind.node.ObjectNode obj)
                    || !(obj.get("traceEvents") instanceof com.fasterxml.jackson.databind.node.ArrayNode events) || events.isEmpty()) {
                return new Mutant(inflated, "unchanged (no traceEvents)");
            }
            int n = 1 + rnd.nextInt(200_000);
            var event = events.get(rnd.nextInt(events.size()));
            switch (rnd.nextInt(6)) {
                case 4 -> {
                    // issue 28: up to 200,000 ProfilerStep#N of 9 us, each with a kernel
                    for (int i = 0; i < n; i++) {
                        long ts = 1_000_000L + i * 10L;
                        events.addObject().put("ph", "X").put("cat", "user_annotation").put("name", "ProfilerStep#" + i)
                                .put("pid", 1).put("tid", 1).put("ts", ts).put("dur", 9);
                    }
                    return new Mutant(JSON.writeValueAsBytes(root), n + " steps of 9 us");
                }
                case 5 -> {
                    // issue 28: ranks and world sizes no job has
                    String[] odd = {"2147483647", "-1", "1e300", "\"zero\"", "50000000", "-5"};
                    String text = new String(JSON.writeValueAsBytes(root), java.nio.charset.StandardCharsets.UTF_8);
                    text = text.replaceFirst("^\\{", "{\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": "
                            + odd[rnd.nextInt(odd.length)] + ", \"world_size\": " + odd[rnd.nextInt(odd.length)] + "},");
                    return new Mutant(text.getBytes(java.nio.charset.StandardCharsets.UTF_8), "distributedInfo with an absurd rank or world size");
                }
                case 0 -> {
                    var devices = obj.putArray("deviceProperties");
                    for (int i = 0; i < n; i++) devices.addObject();
                    return new Mutant(JSON.writeValueAsBytes(root), "deviceProperties of " + n + " empty objects");
                }
                case 1 -> {
                    var dims = JSON.createArrayNode();
                    for (int i = 0; i < n; i++) dims.add(i);
                    if (event instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
                        o.withObject("/args").set(rnd.nextBoolean() ? "Input Dims" : "nested", JSON.createArrayNode().add(dims));
                    }
                    return new Mutant(JSON.writeValueAsBytes(root), "an array of " + n + " numbers in an event's args");
                }
                case 2 -> {
                    for (int i = 0; i < n; i++) events.add(event.deepCopy());
                    return new Mutant(JSON.writeValueAsBytes(root), "one event repeated " + n + " times");
                }
                default -> {
                    var nested = JSON.createArrayNode();
                    for (int i = 0; i < n; i++) nested.addArray();
                    events.add(nested);
                    return new Mutant(JSON.writeValueAsBytes(root), "an array of " + n + " empty arrays among the events");
                }
            }
        }
    }

    private static void source(Map<String, Source> sources, String name, String relative, String suffix, boolean gzip) {
        try {
            sources.put(name, new Source(Corpus.file(relative), suffix, gzip));
        } catch (TestAbortedException e) {
            // corpus absent outside CI: fuzz what is there
        }
    }

    private static byte[] gunzip(byte[] gz) throws IOException {
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(gz))) {
            return in.readAllBytes();
        }
    }

    /** Keeps a contract-breaking mutant for a regular test case. */
    private static void keep(Path file, String name) {
        try {
            Path failures = Files.createDirectories(Path.of("target", "fuzz-failures"));
            Path kept = failures.resolve(file.getFileName());
            Files.copy(file, kept, StandardCopyOption.REPLACE_EXISTING);
            System.err.println("fuzz failure kept as " + kept.toAbsolutePath() + " (" + name + ")");
        } catch (IOException e) {
            System.err.println("could not keep the fuzz failure " + file + ": " + e.getMessage());
        }
    }

    private static int intEnv(String name, int dflt) {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) return dflt;
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, not '" + v + "'");
        }
    }
}
