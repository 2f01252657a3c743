package dlproflint.engine.testing;

import dlproflint.engine.EngineOptions;
import dlproflint.engine.LintEngine;
import dlproflint.engine.RunConfig;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The meta-checks find each kind of gap in a pack that loads fine. */
class CatalogCheckTest {
    @Test
    void reportsEveryGap() throws Exception {
        Path dir = Path.of(getClass().getResource("/testpacks/catalog-gaps/pack.yaml").toURI()).getParent();
        LintEngine engine = LintEngine.load(new EngineOptions(false, List.of(dir), RunConfig.DEFAULT, null));
        Map<String, List<String>> p = CatalogCheck.check(engine);
        assertEquals(List.of("gaps/half-done", "gaps/other-name"), p.keySet().stream().sorted().toList());

        List<String> misnamed = p.get("gaps/other-name");
        assertTrue(misnamed.contains("declared in misnamed.drl; the file must be named other-name.drl"), misnamed.toString());
        assertTrue(misnamed.contains("no help link: add a helpUri template to gaps's pack.yaml (e.g. https://wiki.example.org/lint/{name})"),
                misnamed.toString());
        assertTrue(misnamed.stream().anyMatch(s -> s.startsWith("missing @frameworks")), misnamed.toString());
        assertTrue(misnamed.stream().anyMatch(s -> s.startsWith("missing @inputs")), misnamed.toString());
        assertTrue(misnamed.contains("@since 2.0.0 is newer than the pack version 1.0.0"), misnamed.toString());
        assertTrue(misnamed.contains("no help page misnamed.md beside the rule"), misnamed.toString());
        assertTrue(misnamed.contains("no test cases misnamed.cases.yaml beside the rule"), misnamed.toString());

        List<String> half = p.get("gaps/half-done");
        assertTrue(half.stream().anyMatch(s -> s.startsWith("@frameworks: unknown 'caffe'")), half.toString());
        assertTrue(half.contains("no help link: add a helpUri template to gaps's pack.yaml (e.g. https://wiki.example.org/lint/{name})"),
                half.toString());
        assertTrue(half.contains("help page lacks a section heading for: false positives"), half.toString());
        assertTrue(half.stream().anyMatch(s -> s.endsWith("no negative case (expect: [])")), half.toString());
        assertTrue(half.stream().anyMatch(s -> s.startsWith("declares no @messages")), half.toString());
        assertTrue(half.contains("declares no @evidence keys"), half.toString());
        assertTrue(half.stream().anyMatch(s -> s.endsWith("case \"only a positive case\" expects a finding without its messageId")), half.toString());
        assertEquals(7, half.size(), half.toString());
    }
}
