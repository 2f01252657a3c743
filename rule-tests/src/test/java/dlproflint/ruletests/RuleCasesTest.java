package dlproflint.ruletests;

import dlproflint.engine.LintEngine;
import dlproflint.engine.pack.RulePack;
import dlproflint.engine.testing.CaseResult;
import dlproflint.engine.testing.CaseRunner;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Every {@code *.cases.yaml} of every pack, one JUnit test per case, grouped by pack and rule.
 * The cases run in a fresh session each, on the suite's shared KieBases.
 */
class RuleCasesTest {
    @TestFactory
    List<DynamicNode> cases() throws Exception {
        LintEngine engine = AllPacks.engine();
        CaseRunner runner = new CaseRunner(engine);
        List<DynamicNode> packs = new ArrayList<>();
        for (RulePack pack : engine.sources()) {
            Map<String, List<DynamicNode>> byRule = new LinkedHashMap<>();
            for (CaseResult r : runner.runPack(pack)) {
                String group = r.ruleId() == null ? r.location() : r.ruleId();
                String name = r.caseName() == null ? "cases file" : r.caseName();
                byRule.computeIfAbsent(group, k -> new ArrayList<>()).add(DynamicTest.dynamicTest(name, () -> {
                    if (!r.passed()) throw new AssertionError(r.failure());
                }));
            }
            List<DynamicNode> rules = new ArrayList<>();
            byRule.forEach((rule, tests) -> rules.add(DynamicContainer.dynamicContainer(rule, tests)));
            packs.add(DynamicContainer.dynamicContainer(pack.id() + " " + pack.version(), rules));
        }
        assertFalse(packs.isEmpty(), "no packs found");
        return packs;
    }
}
