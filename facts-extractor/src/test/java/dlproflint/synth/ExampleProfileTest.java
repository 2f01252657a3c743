package dlproflint.synth;

import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bundled example cannot rot: regenerating it with the command in {@code examples/README.md} gives the same
 * rows in every table (and the same bytes, when the SQLite library that wrote the committed file is the one
 * on the class path — the file header records its version).
 */
class ExampleProfileTest {
    static final String EXAMPLE = "examples/resnet-like-fp32.sqlite";

    @TempDir
    Path dir;

    private static String summary(ProfileFacts f) {
        return f.ops().size() + " ops, " + f.kernels().size() + " kernels, " + f.iterations().size() + " iterations, "
                + f.markers() + ", " + f.breakdown() + ", " + f.memcpyStats() + ", " + f.apiStats() + ", " + f.warnings();
    }

    @Test
    void committedExampleEqualsAFreshGeneration() throws Exception {
        Path committed = Corpus.repoRoot().resolve(EXAMPLE);
        assertTrue(Files.isRegularFile(committed), committed + " is missing");
        assertTrue(Files.size(committed) < 1_000_000, "example must stay under 1 MB");
        Path fresh = dir.resolve("fresh.sqlite");
        GenerateProfile.Parsed args = GenerateProfile.parse(new String[]{"--preset", "resnet-like-fp32", fresh.toString()});
        Workload.generate(args.spec(), fresh);
        try (Sql a = Sql.open(committed); Sql b = Sql.open(fresh)) {
            List<String> tables = a.strings("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
            assertEquals(tables, b.strings("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"));
            for (String t : tables) {
                String q = "SELECT * FROM \"" + t + "\" ORDER BY rowid";
                assertEquals(a.rows(q), b.rows(q), "rows of " + t + " differ: regenerate " + EXAMPLE
                        + " with the command in examples/README.md");
            }
        }
        // and the reader sees the same facts in both, showing the problems the example is built to show
        ProfileReaders readers = ProfileReaders.discover();
        ProfileFacts a = readers.read(committed, new ReadOptions("aten::to", null, null));
        ProfileFacts b = readers.read(fresh, new ReadOptions("aten::to", null, null));
        assertEquals(summary(a), summary(b));
        assertEquals(11, a.iterations().size(), "10 key-node instances split 11 intervals");
        assertTrue(a.ops().stream().anyMatch(o -> o.tcEligible() && !o.usesTc() && "float32".equals(o.dataType())),
                "fp32 ops eligible for tensor cores");
        assertTrue(a.gpus().get(0).computeMajor() >= 7, "on a GPU with tensor cores");
        assertTrue(a.memcpyStats().stream().anyMatch(m -> m.copyKind().equals("HtoD") && m.srcKind().equals("Pageable")));
        assertTrue(a.apiStats().stream().anyMatch(x -> x.name().equals("cudaDeviceSynchronize") && x.time().count() == 10));
        assertTrue(a.breakdown().gpuUtilizationPct() < 30, "low GPU utilisation: " + a.breakdown().gpuUtilizationPct());
        assertEquals(Boolean.FALSE, a.modelConfig().cudnnBenchmark());
        assertEquals(Boolean.TRUE, a.modelConfig().emitNvtx());
        byte[] x = Files.readAllBytes(committed);
        byte[] y = Files.readAllBytes(fresh);
        if (ByteBuffer.wrap(x, 96, 4).getInt() == ByteBuffer.wrap(y, 96, 4).getInt()) {
            assertArrayEquals(x, y, "same SQLite version, same seed: the bytes must match");
        }
    }
}
