package dlproflint.cli;

import dlproflint.engine.EngineOptions;
import dlproflint.engine.RuleLoadException;
import dlproflint.engine.testing.PackTestReport;

import java.nio.file.Path;
import java.util.List;

/** The one place that calls the engine's rule-case harness ({@code dlproflint.engine.testing}). */
final class RuleCasesBridge {
    private RuleCasesBridge() {
    }

    /**
     * Runs every case of the pack, then the catalogue meta-checks (metadata, help page and its sections, help
     * link, positive and negative cases, DRL10 subset) that docs/writing-rules.md promises.
     *
     * @return 0 when every case passes and the catalogue is clean, 1 otherwise (or when there are no cases)
     */
    static int run(Path packDir, CliEnv env) throws RuleLoadException {
        PackTestReport report = PackTestReport.run(List.of(packDir), EngineOptions.defaultCacheDir());
        env.out().print(report.render());
        env.out().flush();
        return report.ok() ? ExitCodes.OK : ExitCodes.FINDINGS;
    }
}
