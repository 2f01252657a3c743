package dlproflint.ruletests;

import dlproflint.engine.LintEngine;
import dlproflint.engine.pack.PackFile;
import dlproflint.engine.pack.RulePack;
import dlproflint.engine.testing.CaseFile;
import dlproflint.engine.testing.Expectation;
import dlproflint.engine.testing.ImpactExpectation;
import dlproflint.engine.testing.RuleCase;
import dlproflint.findings.RuleMetadata;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every built-in rule says what its findings cost: its help page has a "Cost estimate" section, and its cases
 * prove it. A rule whose section explains a model has a case asserting a measured impact (and so the severity
 * that follows from it); a rule whose section starts with "None" (a configuration finding, a budget) has a case
 * asserting {@code impact: none}. A rule that forgets to pass its Impact fails here, not in a user's CI.
 */
class CostEstimateCoverageTest {
    private static final Set<String> BUILTIN = Set.of("dlprof", "nsys", "pytorch", "budget", "distributed");
    private static final Pattern SECTION = Pattern.compile("(?ms)^## Cost estimate\\s*\\n(.*?)(?=^## |\\z)");

    @TestFactory
    List<DynamicTest> everyBuiltinRuleDocumentsAndTestsItsCost() throws Exception {
        LintEngine engine = AllPacks.engine();
        Map<String, List<Expectation>> expectations = new HashMap<>();
        for (RulePack p : engine.sources()) {
            if (!BUILTIN.contains(p.id())) continue;
            for (PackFile f : p.caseFiles()) {
                CaseFile cf = CaseFile.parse(f);
                for (RuleCase c : cf.cases()) {
                    for (Expectation e : c.expect()) expectations.computeIfAbsent(e.rule(), k -> new ArrayList<>()).add(e);
                }
            }
        }
        List<DynamicTest> tests = new ArrayList<>();
        for (RuleMetadata r : engine.rules()) {
            if (!BUILTIN.contains(r.packId())) continue;
            tests.add(DynamicTest.dynamicTest(r.id(), () -> {
                Matcher m = SECTION.matcher(r.helpMarkdown() == null ? "" : r.helpMarkdown());
                assertTrue(m.find(), r.id() + ": the help page has no '## Cost estimate' section");
                String section = m.group(1).strip();
                assertFalse(section.isEmpty(), r.id() + ": empty 'Cost estimate' section");
                List<Expectation> own = expectations.getOrDefault(r.id(), List.of());
                boolean none = section.startsWith("None");
                boolean measured = own.stream().anyMatch(e -> e.count() > 0 && e.impact() != null && !e.impact().none());
                boolean asserted = own.stream().anyMatch(e -> e.count() > 0 && e.impact() == ImpactExpectation.NONE);
                if (none) {
                    assertTrue(asserted, r.id() + ": the help says the finding has no cost; a case should assert 'impact: none'");
                    assertFalse(measured, r.id() + ": the help says the finding has no cost, but a case expects one");
                } else {
                    assertTrue(measured, r.id() + ": the help explains a cost model; a positive case should assert its impact");
                }
            }));
        }
        assertTrue(tests.size() >= 43, "21 rules of dlprof and nsys, 14 of pytorch, plus the budget pack, found " + tests.size());
        return tests;
    }
}
