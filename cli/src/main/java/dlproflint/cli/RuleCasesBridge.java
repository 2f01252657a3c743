package dlproflint.cli;

import java.nio.file.Path;

/** The one place that calls the engine's rule-case harness ({@code dlproflint.engine.testing}). */
final class RuleCasesBridge {
    private RuleCasesBridge() {
    }

    /** @return 0 when every case passes, 1 when some fail */
    static int run(Path packDir, CliEnv env) throws CliException {
        throw CliException.usage("rules test: the rule-case harness is not available in this build");
    }
}
