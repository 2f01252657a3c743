package dlproflint.engine.testing;

import dlproflint.engine.EngineOptions;
import dlproflint.engine.LintEngine;
import dlproflint.engine.RuleLoadException;
import dlproflint.engine.RunConfig;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What {@code dlprof-lint rules test DIR} prints: every case of the packs in DIR, then the catalogue
 * meta-checks (complete metadata, help page, positive and negative cases).
 * <pre>
 * PackTestReport r = PackTestReport.run(List.of(dir), EngineOptions.defaultCacheDir());
 * out.print(r.render());
 * return r.ok() ? 0 : 1;
 * </pre>
 * A pack that does not load throws {@link RuleLoadException} (exit 2) before any case runs.
 */
public record PackTestReport(SuiteResult cases, Map<String, List<String>> catalog) {
    public static PackTestReport run(List<Path> dirs, Path cacheDir) throws RuleLoadException {
        LintEngine engine = LintEngine.load(new EngineOptions(false, dirs, RunConfig.DEFAULT, cacheDir));
        return of(engine);
    }

    public static PackTestReport of(LintEngine engine) {
        return new PackTestReport(new CaseRunner(engine).runAll(), CatalogCheck.check(engine));
    }

    public long catalogProblems() {
        return catalog.values().stream().mapToLong(List::size).sum();
    }

    public boolean ok() {
        return cases.ok() && catalogProblems() == 0;
    }

    public String render() {
        StringBuilder sb = new StringBuilder(cases.render());
        catalog.forEach((rule, problems) -> problems.forEach(p -> sb.append("META ").append(rule).append(": ").append(p).append('\n')));
        sb.append(catalog.size()).append(" rules checked: ").append(catalogProblems()).append(" catalogue problem(s)\n");
        return sb.toString();
    }
}
