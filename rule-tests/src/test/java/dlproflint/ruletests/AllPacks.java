package dlproflint.ruletests;

import dlproflint.engine.EngineOptions;
import dlproflint.engine.LintEngine;
import dlproflint.engine.RuleLoadException;
import dlproflint.engine.RunConfig;
import dlproflint.extract.ProfileReaders;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The shipped packs (class path), alone or with the example site pack ({@code examples/site-rules}), and the
 * profile readers, made once per test JVM and shared by every test class: one KieBase per pack for the whole suite.
 */
final class AllPacks {
    private static LintEngine engine;
    private static LintEngine builtin;
    private static ProfileReaders readers;

    private AllPacks() {
    }

    static Path repo() {
        String env = System.getenv("DLPROF_LINT_REPO");
        Path root = env != null ? Path.of(env) : Path.of("..").toAbsolutePath().normalize();
        if (!Files.isDirectory(root.resolve("examples"))) root = Path.of("").toAbsolutePath().getParent();
        return root;
    }

    static Path siteRules() {
        return repo().resolve("examples/site-rules");
    }

    /** The shipped packs alone, as users run them without site rules: loaded once per test JVM. */
    static synchronized LintEngine builtin() throws RuleLoadException {
        if (builtin == null) builtin = LintEngine.load(EngineOptions.builtinOnly());
        return builtin;
    }

    /** The profile readers, discovered once per test JVM. */
    static synchronized ProfileReaders readers() {
        if (readers == null) readers = ProfileReaders.discover();
        return readers;
    }

    static synchronized LintEngine engine() throws RuleLoadException {
        if (engine == null) {
            engine = LintEngine.load(new EngineOptions(true, List.of(siteRules()), RunConfig.DEFAULT, null));
        }
        return engine;
    }
}
