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
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Issue 7 item 2: mutates real corpus files (an nsys SQLite export, a DLProf database, a Kineto
 * {@code .json.gz}) and lints each mutant through the real command, asserting the same contract as
 * {@link BadInputCliTest} (exit 3 with one line, or a usable report; never 70, no stack trace, bounded
 * time, input unchanged).
 *
 * <p>Deterministic: iteration {@code i} of source {@code s} uses {@code new Random(seed * 1_000_003 + s * 10_007 + i)},
 * so a failing case name ({@code kineto #17: flip 3 bytes ...}) is reproduced by the same seed and iteration
 * count. A mutant that breaks the contract is kept in {@code target/fuzz-failures/} for a regular test.
 *
 * <p>CI runs {@value #DEFAULT_ITERATIONS} iterations per source (~30 s on 2 cores). Longer runs:
 * {@code DLPROF_LINT_FUZZ_ITERATIONS=500 DLPROF_LINT_FUZZ_SEED=7 mvn -o -q -B -pl cli test -Dtest='dlproflint/cli/hostile/FuzzCliTest'}
 * (see docs/testing.md).
 */
class FuzzCliTest {
    static final int DEFAULT_ITERATIONS = 12;
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    /** "source outcome" -> count, printed after the run (how much of each reader the mutants reached). */
    private static final Map<String, Integer> OUTCOMES = new java.util.concurrent.ConcurrentSkipListMap<>();

    @org.junit.jupiter.api.AfterAll
    static void printOutcomes() {
        System.out.println("fuzz outcomes: " + OUTCOMES);
    }

    @TestFactory
    List<DynamicTest> fuzz() throws IOException {
        int iterations = intEnv("DLPROF_LINT_FUZZ_ITERATIONS", DEFAULT_ITERATIONS);
        long seed = intEnv("DLPROF_LINT_FUZZ_SEED", 20261122);
        Map<String, Source> sources = new LinkedHashMap<>();
        source(sources, "nsys", "mohanadodema-dlprof/w_Relu/nsys_profile.sqlite", ".sqlite", false);
        source(sources, "dldb", "mohanadodema-dlprof/w_Relu/dlprof_dldb_1.sqlite", ".sqlite", false);
        source(sources, "kineto", "hta/tests/data/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz",
                ".json.gz", true);
        if (sources.isEmpty()) throw new TestAbortedException("no corpus files to fuzz");
        HostileCli cli = new HostileCli(dir);
        List<DynamicTest> out = new ArrayList<>();
        int s = 0;
        for (Map.Entry<String, Source> e : sources.entrySet()) {
            s++;
            Source src = e.getValue();
            byte[] original = Files.readAllBytes(src.path());
            byte[] inflated = src.gzip() ? gunzip(original) : null;
            for (int i = 0; i < iterations; i++) {
                Random rnd = new Random(seed * 1_000_003L + s * 10_007L + i);
                Mutant m = inflated != null && rnd.nextBoolean()
                        ? Mutator.mutate(inflated, rnd).regzipped()   // reach the JSON parser, not just gzip's CRC check
                        : Mutator.mutate(original, rnd);
                String name = e.getKey() + " #" + i + ": " + m.description();
                Path file = dir.resolve(e.getKey() + "-" + i + src.suffix());
                out.add(DynamicTest.dynamicTest(name, () -> {
                    Files.write(file, m.bytes());
                    try {
                        HostileCli.Outcome o = assertTimeoutPreemptively(LIMIT, () -> cli.lintAndCheck(file), name);
                        OUTCOMES.merge(e.getKey() + " " + o, 1, Integer::sum);
                    } catch (AssertionError | RuntimeException ex) {
                        keep(file, name);
                        throw ex;
                    } finally {
                        Files.deleteIfExists(file);
                    }
                }));
            }
        }
        System.out.println("fuzz: " + out.size() + " mutants (" + iterations + " per source, seed " + seed + ")");
        return out;
    }

    record Source(Path path, String suffix, boolean gzip) {
    }

    /** One mutated file and what was done to it. */
    record Mutant(byte[] bytes, String description) {
        Mutant regzipped() throws IOException {
            return new Mutant(HostileInputs.gzip(bytes), "inside gzip: " + description);
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
