package dlproflint.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How to assemble the rule base.
 *
 * @param includeBuiltin load the packs shipped in the {@code rules} module (class path)
 * @param ruleDirs       user pack directories ({@code --rules DIR}, config {@code rules:}); code checked at load
 *                       ({@link dlproflint.engine.pack.SiteCodeCheck}) unless the pack says {@code trusted: true}
 * @param cacheDir       where compiled packs are cached, or null for no cache
 * @param catalogOnly    see {@link #withCatalogOnly()}
 * @param codeTimeLimit  see {@link #withCodeTimeLimit(Duration)}
 */
public record EngineOptions(boolean includeBuiltin, List<Path> ruleDirs, RunConfig config, Path cacheDir,
                            boolean catalogOnly, Duration codeTimeLimit) {
    public EngineOptions {
        ruleDirs = List.copyOf(ruleDirs);
        if (config == null) config = RunConfig.DEFAULT;
    }

    /** Packs compiled and run, their code under the default rule time limit. */
    public EngineOptions(boolean includeBuiltin, List<Path> ruleDirs, RunConfig config, Path cacheDir) {
        this(includeBuiltin, ruleDirs, config, cacheDir, false, LintEngine.DEFAULT_RULE_TIME_LIMIT);
    }

    public static EngineOptions builtinOnly() {
        return new EngineOptions(true, List.of(), RunConfig.DEFAULT, null);
    }

    public EngineOptions withCacheDir(Path dir) {
        return new EngineOptions(includeBuiltin, ruleDirs, config, dir, catalogOnly, codeTimeLimit);
    }

    public EngineOptions withConfig(RunConfig c) {
        return new EngineOptions(includeBuiltin, ruleDirs, c, cacheDir, catalogOnly, codeTimeLimit);
    }

    /**
     * Only the catalogue is wanted ({@code rules list}, {@code rules explain}, {@code rules docs}): a pack never
     * compiled before is not compiled now, its rules' annotations are read from the parsed DRL, so no rule code runs.
     */
    public EngineOptions withCatalogOnly() {
        return new EngineOptions(includeBuiltin, ruleDirs, config, cacheDir, true, codeTimeLimit);
    }

    /** How long a site pack's code may run while its rule base is built (null: no limit). */
    public EngineOptions withCodeTimeLimit(Duration limit) {
        return new EngineOptions(includeBuiltin, ruleDirs, config, cacheDir, catalogOnly, limit);
    }

    /**
     * The default compiled-pack cache: {@code $DLPROF_LINT_CACHE_DIR}, else
     * {@code $XDG_CACHE_HOME/dlprof-lint}, else {@code ~/.cache/dlprof-lint}; null (no cache) when
     * it cannot be created or written, e.g. a read-only home in a CI container.
     */
    public static Path defaultCacheDir() {
        String explicit = System.getenv("DLPROF_LINT_CACHE_DIR");
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path dir;
        if (explicit != null && !explicit.isBlank()) dir = Path.of(explicit);
        else if (xdg != null && !xdg.isBlank()) dir = Path.of(xdg, "dlprof-lint");
        else dir = Path.of(System.getProperty("user.home"), ".cache", "dlprof-lint");
        try {
            Files.createDirectories(dir);
            return Files.isWritable(dir) ? dir : null;
        } catch (Exception e) {
            return null;
        }
    }
}
