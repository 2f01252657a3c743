package dlproflint.cli;

import dlproflint.engine.EngineOptions;
import dlproflint.engine.RuleLoadException;
import dlproflint.engine.testing.CaseRunner;
import dlproflint.engine.testing.SuiteResult;

import java.nio.file.Path;
import java.util.List;

/** The one place that calls the engine's rule-case harness ({@code dlproflint.engine.testing}). */
final class RuleCasesBridge {
    private RuleCasesBridge() {
    }

    /** @return 0 when every case passes, 1 when some fail (or there are none) */
    static int run(Path packDir, CliEnv env) throws RuleLoadException {
        SuiteResult result = CaseRunner.runDirectories(List.of(packDir), EngineOptions.defaultCacheDir());
        env.out().print(result.render());
        env.out().flush();
        return result.ok() ? ExitCodes.OK : ExitCodes.FINDINGS;
    }
}
