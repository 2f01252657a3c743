package dlproflint.engine.catalog;

import dlproflint.findings.PackInfo;
import dlproflint.findings.ParamSpec;
import dlproflint.findings.RuleMetadata;
import dlproflint.findings.Severity;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The renderer on hand-made catalogue entries (no Drools): layout, escaping, ordering, selection. */
class RuleDocsTest {
    private static final PackInfo ACME = new PackInfo("acme", "2.1.0", "Site rules\nof ACME.", "/x/acme");
    private static final PackInfo OTHER = new PackInfo("other", "1.0.0", "", "builtin");

    private static RuleMetadata rule(String pack, String name, String summary, List<ParamSpec> params, String help) {
        return new RuleMetadata(pack + "/" + name, pack, "2.1.0", "Title of " + name, Severity.parse("warning"), "memory",
                "2.0.0", summary, "https://example.org/" + name + ".md", List.of("pytorch"), List.of("nsys-sqlite", "kineto"),
                params, help);
    }

    private static List<ParamSpec> params() {
        return List.of(new ParamSpec("zeta", dlproflint.findings.ParamType.PERCENT, "%", 0.25, List.of(), "a | share"),
                new ParamSpec("alpha", dlproflint.findings.ParamType.COUNT, "kernels", 500.0, List.of(), "a count"));
    }

    @Test
    void pageHasOneGeneratedTitleTheMetadataAndTheHelpBody() {
        RuleMetadata r = rule("acme", "b-rule", "Copies | are slow.", params(), "# acme/b-rule\r\n\r\n## What it detects\r\nCopies.\r\n");
        String page = RuleDocs.render(List.of(ACME), List.of(r), "regen cmd").get("acme/b-rule.md");
        assertEquals("<!-- Generated from the acme rule pack (b-rule.drl annotations and b-rule.md) by 'dlprof-lint rules docs';"
                + " do not edit. Regenerate: regen cmd -->\n"
                + "# acme/b-rule — Title of b-rule\n\n"
                + "Copies | are slow.\n\n"
                + "| | |\n|---|---|\n"
                + "| id | `acme/b-rule` |\n"
                + "| pack | [`acme`](../index.md) 2.1.0 |\n"
                + "| default severity | warning for a finding without a cost estimate; one with an estimate takes its severity from"
                + " the share of the step (of the analysed range without steps) a fix recovers: with the default thresholds error"
                + " from 20%, warning from 5%, note below ([configuration](../../configuration.md#severity-from-impact);"
                + " `rules.severity` changes the thresholds for this rule or pins a severity) |\n"
                + "| category | memory |\n"
                + "| since | 2.0.0 |\n"
                + "| frameworks | pytorch |\n"
                + "| inputs | nsys-sqlite, kineto |\n"
                + "| parameters | `zeta` = `0.25`, `alpha` = `500` |\n"
                + "| messages | none |\n"
                + "| help | https://example.org/b-rule.md |\n\n"
                + "## Parameters\n| parameter | type | default | meaning |\n|---|---|---|---|\n"
                + "| `zeta` | percent | `0.25%` | a \\| share |\n| `alpha` | count (kernels) | `500` | a count |\n\n"
                + "## What it detects\nCopies.\n", page);
    }

    @Test
    void theParameterTableGoesUnderTheHelpPagesThresholdHeading() {
        String help = RuleDocs.withParameterTable("## What it detects\nX.\n\n## Threshold and parameters\nDLProf used 50%.\n\n## Fix\nY.",
                List.of(new ParamSpec("maxPct", 50, "fire below this")));
        assertEquals("## What it detects\nX.\n\n## Threshold and parameters\n| parameter | type | default | meaning |\n|---|---|---|---|\n"
                + "| `maxPct` | number | `50` | fire below this |\n\nDLProf used 50%.\n\n## Fix\nY.", help);
    }

    @Test
    void indexListsOnlyTheGivenPacksSortedWithEscapedCells() {
        List<RuleMetadata> rules = List.of(rule("acme", "z-rule", "Z | pipe", List.of(), ""),
                rule("acme", "a-rule", "A\nsecond line", List.of(), ""), rule("other", "o-rule", "O", List.of(), ""));
        SortedMap<String, String> files = RuleDocs.render(List.of(ACME), rules, "regen");
        assertEquals(List.of("acme/a-rule.md", "acme/z-rule.md", "index.md"), List.copyOf(files.keySet()));
        String index = files.get("index.md");
        assertTrue(index.contains("## Pack `acme` 2.1.0\n\nSite rules of ACME.\n\n2 rules.\n"), index);
        int a = index.indexOf("| [`acme/a-rule`](acme/a-rule.md) | warning | memory | A second line | nsys-sqlite, kineto |");
        int z = index.indexOf("| [`acme/z-rule`](acme/z-rule.md) | warning | memory | Z \\| pipe | nsys-sqlite, kineto |");
        assertTrue(a > 0 && z > a, index);
        assertFalse(index.contains("other"), index);
    }

    @Test
    void outputDoesNotDependOnInputOrder() {
        List<RuleMetadata> rules = List.of(rule("acme", "x", "X", List.of(), "# t\nbody"), rule("other", "y", "Y", List.of(), ""));
        assertEquals(RuleDocs.render(List.of(ACME, OTHER), rules, "r"),
                RuleDocs.render(List.of(OTHER, ACME), List.of(rules.get(1), rules.get(0)), "r"));
    }

    @Test
    void helpWithoutTitleOrEmptyIsKeptOrOmitted() {
        assertEquals("Just text.", RuleDocs.helpBody("Just text.\n\n"));
        assertEquals("", RuleDocs.helpBody("# Only a title\n"));
        assertEquals("", RuleDocs.helpBody(null));
        assertEquals("0.0000001", RuleDocs.number(1e-7));
    }
}
