package dlproflint.engine.testing;

import dlproflint.engine.EngineOptions;
import dlproflint.findings.Finding;
import dlproflint.engine.LintEngine;
import dlproflint.engine.RuleLoadException;
import dlproflint.engine.RunConfig;
import dlproflint.engine.pack.PackFile;
import dlproflint.engine.pack.RulePack;
import dlproflint.facts.ProfileFacts;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs rule test cases ({@code *.cases.yaml} beside each rule) against an already loaded
 * {@link LintEngine}: the packs are compiled once for the whole suite, and each case gets a fresh
 * session through {@link LintEngine#withConfig} with only the case's rules enabled (the file's rule
 * plus any rule its {@code expect} names; derive rules always run) and the case's parameters.
 * Used by the rule-tests JUnit suite and by {@code dlprof-lint rules test DIR}.
 */
public final class CaseRunner {
    private final LintEngine engine;
    private final FactsYaml factsYaml = new FactsYaml(CaseRunner.class.getClassLoader());

    public CaseRunner(LintEngine engine) {
        this.engine = engine;
    }

    public LintEngine engine() {
        return engine;
    }

    /** Every case of every loaded pack. */
    public SuiteResult runAll() {
        List<CaseResult> out = new ArrayList<>();
        for (RulePack p : engine.sources()) out.addAll(runPack(p));
        return new SuiteResult(out);
    }

    public List<CaseResult> runPack(RulePack pack) {
        List<CaseResult> out = new ArrayList<>();
        for (PackFile f : pack.caseFiles()) {
            CaseFile cf;
            try {
                cf = CaseFile.parse(f);
            } catch (RuleLoadException e) {
                out.add(new CaseResult(pack.id(), null, f.origin(), null, e.getMessage(), List.of()));
                continue;
            }
            if (engine.rule(cf.rule()).isEmpty()) {
                out.add(new CaseResult(pack.id(), cf.rule(), f.origin(), null,
                        f.origin() + ":1: rule '" + cf.rule() + "' is not declared by any loaded pack", List.of()));
                continue;
            }
            for (RuleCase c : cf.cases()) out.add(run(pack.id(), cf, c));
        }
        return out;
    }

    public CaseResult run(String packId, CaseFile file, RuleCase c) {
        String where = file.file().origin() + (c.line() > 0 ? ":" + c.line() : "");
        List<Finding> actual = List.of();
        try {
            Set<String> enabled = new LinkedHashSet<>();
            enabled.add(file.rule());
            c.expect().forEach(e -> enabled.add(e.rule()));
            Map<String, Map<String, Object>> params = c.params().isEmpty() ? Map.of() : Map.of(file.rule(), c.params());
            LintEngine caseEngine = engine.withConfig(RunConfig.DEFAULT.withSelection(enabled, Set.of()).withParams(params)
                    .withBudgets(c.budgets()));
            if (caseEngine.jobScope(packId)) {
                actual = caseEngine.lintJob(factsYaml.readJob(c.facts(), file.file().origin()), file.file().origin());
            } else {
                ProfileFacts facts = factsYaml.read(c.facts(), file.file().origin());
                actual = caseEngine.lint(facts);
            }
            String failure = compare(c.expect(), actual);
            return new CaseResult(packId, file.rule(), where, c.name(),
                    failure == null ? null : where + ": case \"" + c.name() + "\" failed:\n" + failure, actual);
        } catch (RuleLoadException | IllegalArgumentException e) {
            return new CaseResult(packId, file.rule(), where, c.name(), where + ": case \"" + c.name() + "\": " + e.getMessage(), actual);
        } catch (dlproflint.engine.run.RuleFailure e) {
            return new CaseResult(packId, file.rule(), where, c.name(), where + ": case \"" + c.name() + "\": " + e.getMessage(), actual);
        } catch (RuntimeException e) { // anything else a rule threw: report it as the case's failure
            Throwable root = e;
            while (root.getCause() != null) root = root.getCause();
            return new CaseResult(packId, file.rule(), where, c.name(),
                    where + ": case \"" + c.name() + "\": rule threw " + root, actual);
        }
    }

    /** Null when the findings are exactly the expected multiset, else the explanation. */
    static String compare(List<Expectation> expect, List<Finding> actual) {
        List<String> problems = new ArrayList<>();
        Map<String, Integer> want = new TreeMap<>();
        for (Expectation e : expect) want.merge(e.rule(), e.count(), Integer::sum);
        Map<String, Integer> got = new TreeMap<>();
        for (Finding f : actual) got.merge(f.ruleId(), 1, Integer::sum);
        Set<String> ids = new java.util.TreeSet<>(want.keySet());
        ids.addAll(got.keySet());
        for (String id : ids) {
            int w = want.getOrDefault(id, 0);
            int g = got.getOrDefault(id, 0);
            if (w != g) problems.add("expected " + w + " x " + id + ", got " + g);
        }
        Map<String, List<Finding>> byRule = new HashMap<>();
        for (Finding f : actual) byRule.computeIfAbsent(f.ruleId(), k -> new ArrayList<>()).add(f);
        for (Expectation e : expect) {
            if (!e.constrains()) continue;
            List<Finding> own = byRule.getOrDefault(e.rule(), List.of());
            long matching = own.stream().filter(f -> e.mismatches(f).isEmpty()).count();
            if (matching < e.count()) {
                problems.add("expected " + e + ", but " + matching + " finding(s) match"
                        + (own.isEmpty() ? "" : " (first: " + String.join("; ", e.mismatches(own.get(0))) + ")"));
            }
        }
        if (problems.isEmpty()) return null;
        StringBuilder sb = new StringBuilder();
        problems.forEach(p -> sb.append("  ").append(p).append('\n'));
        sb.append("  actual findings:").append(actual.isEmpty() ? " []" : "").append('\n');
        for (Finding f : actual) sb.append(FindingYaml.render(f).indent(4));
        return sb.toString().stripTrailing();
    }
}
