package dlproflint.ruletests;

import dlproflint.engine.EngineOptions;
import dlproflint.engine.LintEngine;
import dlproflint.engine.RuleLoadException;
import dlproflint.engine.RunConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The shipped packs (class path) plus the example site pack ({@code examples/site-rules}), compiled
 * once per test JVM and shared by every test class: one KieBase per pack for the whole suite.
 */
final class AllPacks {
    private static LintEngine engine;

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

    static synchronized LintEngine engine() throws RuleLoadException {
        if (engine == null) {
            engine = LintEngine.load(new EngineOptions(true, List.of(siteRules()), RunConfig.DEFAULT, null));
        }
        return engine;
    }
}
