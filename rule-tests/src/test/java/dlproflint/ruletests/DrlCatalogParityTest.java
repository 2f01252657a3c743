package dlproflint.ruletests;

import dlproflint.engine.LintEngine;
import dlproflint.engine.catalog.DrlCatalog;
import dlproflint.engine.catalog.LoadedRule;
import dlproflint.engine.catalog.RuleAnnotations;
import dlproflint.engine.catalog.RuleCatalog;
import dlproflint.engine.pack.RulePack;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 28: {@code rules list}, {@code explain} and {@code docs} read a never-compiled site pack's annotations from
 * the parsed DRL ({@link DrlCatalog}) so that no rule code runs while rules are listed. That catalogue must be the
 * one a compiled pack gives: compared here on every built-in rule and the example site pack, annotation by
 * annotation and entry by entry.
 */
class DrlCatalogParityTest {
    @Test
    void theParsedCatalogueIsTheCompiledOne() throws Exception {
        LintEngine engine = AllPacks.engine();
        int rules = 0;
        for (RulePack pack : engine.sources()) {
            List<RuleAnnotations> parsed = DrlCatalog.annotations(pack);
            List<LoadedRule> fromParse = RuleCatalog.read(pack, parsed);
            List<LoadedRule> compiled = engine.loadedRules().stream().filter(r -> pack.drlFiles().contains(r.drl())).toList();
            assertEquals(compiled.size(), fromParse.size(), pack.id() + ": rule count");
            for (int i = 0; i < compiled.size(); i++) {
                assertEquals(compiled.get(i).ruleName(), fromParse.get(i).ruleName(), pack.id());
                assertEquals(compiled.get(i).derive(), fromParse.get(i).derive(), pack.id() + ": " + compiled.get(i).ruleName());
                assertEquals(compiled.get(i).metadata(), fromParse.get(i).metadata(), pack.id() + ": " + compiled.get(i).ruleName());
                assertEquals(compiled.get(i).line(), fromParse.get(i).line());
                rules++;
            }
        }
        assertTrue(rules > 50, "every built-in rule compared: " + rules);
    }
}
