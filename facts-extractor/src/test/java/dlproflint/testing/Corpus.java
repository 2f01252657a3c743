package dlproflint.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Locates the shared corpus of real profiles ({@code ../shared/corpus} beside the checkout).
 * When it is absent a test is skipped with a visible notice, so a newcomer's clone still passes;
 * under CI ({@code CI=true}) its absence fails the test instead.
 */
public final class Corpus {
    private Corpus() {
    }

    /** The repository root: the nearest ancestor of the working directory holding {@code .ci/run}. */
    public static Path repoRoot() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.exists(p.resolve(".ci").resolve("run"))) return p;
        }
        throw new IllegalStateException("cannot find the repository root (no .ci/run above " + dir + ")");
    }

    /** {@code ../shared/corpus} relative to the repository root (may not exist). */
    public static Path root() {
        String override = System.getenv("DLPROF_LINT_CORPUS");
        if (override != null && !override.isBlank()) return Path.of(override);
        return repoRoot().resolve("..").resolve("shared").resolve("corpus").normalize();
    }

    /**
     * A corpus file; skips the calling test (or fails it under CI) when it is missing.
     *
     * @param relative path inside the corpus, e.g. {@code mohanadodema-dlprof/w_Relu/nsys_profile.sqlite}
     */
    public static Path file(String relative) {
        Path p = root().resolve(relative);
        if (!Files.exists(p)) {
            String msg = "corpus file " + p + " is missing (the shared corpus is expected beside the checkout)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError(msg + "; CI=true requires it");
            }
            System.err.println("NOTICE: skipping: " + msg);
            Assumptions.abort(msg);
        }
        return p;
    }

    /**
     * The corpus profiles the suite knows: those the fact digests list ({@link #REGISTRY}) and the corpus holds,
     * as corpus-relative paths with '/' separators, sorted. Corpus-wide tests (snapshots, digests, the kernel list,
     * the generalisation and pack tables) run over these, so a profile added to the corpus is one failure of
     * {@code NewCorpusProfilesTest} naming the command that registers it, not one failure in every such test.
     * Skips the calling test (or fails it under CI) when the corpus is absent.
     */
    public static List<String> profiles() {
        List<String> present = present();
        java.util.Set<String> known = registered();
        return present.stream().filter(known::contains).toList();
    }

    /**
     * Every profile-like file of the corpus ({@code .sqlite}, {@code .json}, {@code .json.gz}), registered or not,
     * as corpus-relative paths with '/' separators, sorted; skips the calling test (or fails it under CI) when the
     * corpus is absent.
     */
    public static List<String> present() {
        Path root = root();
        if (!Files.isDirectory(root)) {
            file(".");
            return List.of();
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(n -> n.endsWith(".sqlite") || n.endsWith(".json") || n.endsWith(".json.gz"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The registry of known corpus profiles: the fact digests, one {@code sha256  path} line per profile, which
     * {@code -Dsnapshots.update=true} rewrites from the corpus as it is.
     */
    public static final String REGISTRY = "facts-extractor/src/test/resources/corpus-facts.sha256";

    /** The command that registers new corpus profiles: digests, snapshots and the kernel list, rewritten for review. */
    public static final String UPDATE_COMMAND = "mvn -B -pl rule-tests -am verify -Dsnapshots.update=true -Dkernels.update=true";

    /** The profiles the registry lists (whether or not the corpus still holds them). */
    public static java.util.Set<String> registered() {
        Path registry = repoRoot().resolve(REGISTRY);
        java.util.Set<String> known = new java.util.TreeSet<>();
        try {
            if (!Files.exists(registry)) return known;
            for (String line : Files.readAllLines(registry)) {
                int sep = line.indexOf("  ");
                if (sep > 0) known.add(line.substring(sep + 2).trim());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return known;
    }
}
