package dlproflint.engine;

import java.nio.file.Path;
import java.util.List;

/**
 * How to assemble the rule base.
 *
 * @param includeBuiltin load the packs shipped in the {@code rules} module (class path)
 * @param ruleDirs       user pack directories ({@code --rules DIR}, config {@code rules:}); trusted code
 * @param cacheDir       where compiled packs are cached, or null for no cache
 */
public record EngineOptions(boolean includeBuiltin, List<Path> ruleDirs, RunConfig config, Path cacheDir) {
    public EngineOptions {
        ruleDirs = List.copyOf(ruleDirs);
    }

    public static EngineOptions builtinOnly() {
        return new EngineOptions(true, List.of(), RunConfig.DEFAULT, null);
    }
}
