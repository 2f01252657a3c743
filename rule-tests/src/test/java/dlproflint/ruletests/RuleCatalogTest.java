package dlproflint.ruletests;

import dlproflint.engine.LintEngine;
import dlproflint.findings.RuleMetadata;
import dlproflint.engine.testing.CatalogCheck;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Meta-tests over the catalogue (PMD's RuleSetFactoryTest, Checkstyle's AllChecksTest in spirit):
 * every rule has complete metadata, a unique well-formed id, a help page with the required
 * sections, positive and negative cases, a short enough summary and a consistent help link.
 */
class RuleCatalogTest {
    @TestFactory
    List<DynamicTest> everyRuleIsComplete() throws Exception {
        Map<String, List<String>> problems = CatalogCheck.check(AllPacks.engine());
        return problems.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            if (!e.getValue().isEmpty()) {
                throw new AssertionError(e.getKey() + ":\n  - " + String.join("\n  - ", e.getValue()));
            }
        })).toList();
    }

    @Test
    void idsAreUniqueAndCatalogueIsSorted() throws Exception {
        List<String> ids = AllPacks.engine().rules().stream().map(RuleMetadata::id).toList();
        assertEquals(ids.stream().distinct().sorted().toList(), ids);
    }

    @Test
    void theExampleSitePackIsLoadedNextToTheBuiltinOnes() throws Exception {
        LintEngine e = AllPacks.engine();
        assertTrue(e.rule("acme/fp16-not-bf16").isPresent(), e.rules().toString());
        assertEquals("acme", e.rule("acme/fp16-not-bf16").orElseThrow().packId());
    }

    @Test
    void rulesTestCommandPassesOnTheExamplePack() throws Exception {
        // what `dlprof-lint rules test examples/site-rules` runs: the documented tutorial must stay green
        var report = dlproflint.engine.testing.PackTestReport.run(List.of(AllPacks.siteRules()), null);
        assertTrue(report.ok(), report.render());
        assertTrue(report.render().contains("PASS acme/fp16-not-bf16 > bf16 kernels are the standard"), report.render());
    }

    @Test
    void packsCompileWithoutWarnings() throws Exception {
        // DRL10 deprecations and other compiler warnings would break on the next Drools language level
        assertEquals("", AllPacks.engine().warnings().stream().collect(Collectors.joining("\n")));
    }
}
