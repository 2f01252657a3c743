package dlproflint.engine.compile;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * Content-addressed store of compiled packs: {@code <dir>/kjars/<sha256>.jar} holds the KieModule
 * bytes (executable model classes + kmodule.xml) of a pack whose DRL and manifest hash to that
 * key. A key never changes meaning, so entries are never invalidated, only added; delete the folder
 * to reclaim space. A cache that cannot be created or written is silently skipped: caching is an
 * optimisation, never a reason to fail a run.
 */
public final class KjarCache {
    private static final String JAR = ".jar";
    private final Path dir;

    private KjarCache(Path dir) {
        this.dir = dir;
    }

    /** A cache under {@code root}, or a disabled cache when root is null. */
    public static KjarCache at(Path root) {
        return new KjarCache(root == null ? null : root.resolve("kjars"));
    }

    /** A store that writes {@code <key>.jar} straight into {@code kjarsDir} (used by {@link Precompile}). */
    public static KjarCache direct(Path kjarsDir) {
        return new KjarCache(kjarsDir);
    }

    public boolean enabled() {
        return dir != null;
    }

    public Optional<Path> find(String key) {
        return find(key, JAR);
    }

    /** An entry stored beside the kjar under the same key, e.g. {@code <key>.catalog}. */
    public Optional<Path> find(String key, String suffix) {
        if (dir == null) return Optional.empty();
        Path p = dir.resolve(key + suffix);
        return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
    }

    /** Stores atomically (temp file + rename), so a concurrent reader never sees half a jar. */
    public Optional<Path> put(String key, byte[] kjar) {
        return put(key, JAR, kjar);
    }

    public Optional<Path> put(String key, String suffix, byte[] content) {
        if (dir == null) return Optional.empty();
        Path target = dir.resolve(key + suffix);
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            tmp = Files.createTempFile(dir, key, ".tmp");
            Files.write(tmp, content);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            return Optional.of(target);
        } catch (IOException | SecurityException e) {
            deleteQuietly(tmp);
            return Optional.empty();
        }
    }

    /** Drops an entry that failed to load (truncated or from an incompatible engine), with what is stored beside it. */
    public void evict(String key) {
        if (dir == null) return;
        deleteQuietly(dir.resolve(key + JAR));
        deleteQuietly(dir.resolve(key + PackCompiler.CATALOG));
    }

    private static void deleteQuietly(Path p) {
        if (p == null) return;
        try {
            Files.deleteIfExists(p);
        } catch (IOException | SecurityException ignored) {
            // best effort
        }
    }
}
