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
     * Every profile-like file of the corpus ({@code .sqlite}, {@code .json}, {@code .json.gz}) as
     * corpus-relative paths with '/' separators, sorted; skips the calling test (or fails it under CI)
     * when the corpus is absent.
     */
    public static List<String> profiles() {
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
}
