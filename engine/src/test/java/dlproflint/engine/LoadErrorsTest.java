package dlproflint.engine;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every broken pack is rejected at load with "file:line: message" naming the user's file. */
class LoadErrorsTest {
    private static RuleLoadException fail(String pack) {
        return assertThrows(RuleLoadException.class, () -> LintEngine.load(TestPacks.only(pack)));
    }

    @Test
    void syntaxError() {
        RuleLoadException e = fail("syntax-error");
        assertEquals(TestPacks.dir("syntax-error").resolve("bad.drl").toString(), e.file());
        assertEquals(8, e.line());
    }

    @Test
    void unknownFactType() {
        RuleLoadException e = fail("unknown-type");
        assertEquals(TestPacks.dir("unknown-type").resolve("typo.drl") + ":8: rule \"typo\": unknown fact type 'KernelFacts'"
                + " (check the spelling and the imports; fact types are in dlproflint.facts)", e.getMessage());
    }

    @Test
    void unknownFactTypeInsideAccumulateNextToADeclaredType() {
        RuleLoadException e = fail("unknown-type-accumulate");
        assertEquals(TestPacks.dir("unknown-type-accumulate").resolve("acc.drl").toString(), e.file());
        assertEquals(13, e.line());
        assertTrue(e.getMessage().contains("unknown fact type 'KernelFacts'"), e.getMessage());
    }

    @Test
    void duplicateRuleId() {
        RuleLoadException e = fail("duplicate-id");
        assertTrue(e.getMessage().contains("duplicate rule id 'dup/same'"), e.getMessage());
        assertEquals(TestPacks.dir("duplicate-id").resolve("b.drl").toString(), e.file());
        assertEquals(7, e.line());
        assertTrue(e.getMessage().contains("a.drl:5"), e.getMessage());
    }

    @Test
    void missingMetadata() {
        RuleLoadException e = fail("missing-metadata");
        assertEquals(TestPacks.dir("missing-metadata").resolve("incomplete.drl") + ":5: rule \"incomplete\" lacks required metadata @severity"
                + " (finding rules need @id, @name, @severity, @category, @since, @summary)", e.getMessage());
    }

    @Test
    void badManifest() {
        RuleLoadException e = fail("bad-manifest");
        assertEquals(TestPacks.dir("bad-manifest").resolve("pack.yaml").toString(), e.file());
        assertEquals(1, e.line());
        assertTrue(e.getMessage().contains("pack id 'Bad Pack'"), e.getMessage());
    }

    @Test
    void aRuleThatReadsAnotherRulesParameterDoesNotLoad() {
        RuleLoadException e = fail("param-of-other");
        assertEquals(TestPacks.dir("param-of-other").resolve("reads-other.drl") + ":25: rule \"second\": reads parameter 'maxPtc',"
                + " which its @params does not declare (declared: maxPct)", e.getMessage());
    }

    @Test
    void paramsWithoutDescriptionsAndHandWrittenHelpLinksDoNotLoad(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Files.writeString(dir.resolve("pack.yaml"), "id: p\nversion: 0.1.0\ndescription: d\n");
        String rule = """
                package p;
                import dlproflint.facts.*;
                rule "r"
                    @id("p/r") @name("R") @severity("note") @category("x") @since("0.1.0") @summary("s")
                    %s
                when
                    TimeBreakdown()
                then
                end
                """;
        java.nio.file.Files.writeString(dir.resolve("r.drl"), rule.formatted("@params(\"maxPct=50\")"));
        RuleLoadException e = assertThrows(RuleLoadException.class, () -> LintEngine.load(
                new EngineOptions(false, java.util.List.of(dir), RunConfig.DEFAULT, null)));
        assertTrue(e.getMessage().contains("@params entry 'maxPct=50' must be 'type name = default: description'"), e.getMessage());
        java.nio.file.Files.writeString(dir.resolve("r.drl"), rule.formatted("@helpUri(\"https://x.org/r.md\")"));
        e = assertThrows(RuleLoadException.class, () -> LintEngine.load(
                new EngineOptions(false, java.util.List.of(dir), RunConfig.DEFAULT, null)));
        assertTrue(e.getMessage().contains("remove @helpUri; help links come from the rule id"), e.getMessage());
        java.nio.file.Files.writeString(dir.resolve("r.drl"), rule.formatted("@severityFrom(\"rule\")"));
        e = assertThrows(RuleLoadException.class, () -> LintEngine.load(
                new EngineOptions(false, java.util.List.of(dir), RunConfig.DEFAULT, null)));
        assertTrue(e.getMessage().contains("@severityFrom must be \"impact\" or \"declared\", not \"rule\""), e.getMessage());
    }

    @Test
    void aTypoInAMessageIdOrAParameterIsALoadErrorWithItsLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Files.writeString(dir.resolve("pack.yaml"), "id: p\nversion: 0.1.0\ndescription: d\n");
        String rule = """
                package p;
                import dlproflint.facts.*;
                import dlproflint.engine.*;
                import dlproflint.findings.*;
                global dlproflint.engine.FindingSink findings;
                rule "r"
                    @id("p/r") @name("R") @severity("note") @category("x") @since("0.1.0") @summary("s")
                    @params({"percent maxPct = 50: fire below this"})
                    @messages({"low = GPU utilization {gpuUtilizationPct:pct}"})
                when
                    %s
                    $b : TimeBreakdown(gpuUtilizationPct < $max)
                then
                    findings.report(kcontext, Subject.profile(),
                        Message.of("%s"), "", Evidence.of("gpuUtilizationPct", $b.gpuUtilizationPct()));
                end
                """;
        java.nio.file.Files.writeString(dir.resolve("r.drl"), rule.formatted("Param(name == \"maxPct\", $max : value)", "lwo"));
        RuleLoadException e = assertThrows(RuleLoadException.class, () -> LintEngine.load(
                new EngineOptions(false, java.util.List.of(dir), RunConfig.DEFAULT, null)));
        assertEquals(dir.resolve("r.drl") + ":15: rule \"r\": reports message 'lwo', which its @messages does not declare (declared: low)",
                e.getMessage());
        java.nio.file.Files.writeString(dir.resolve("r.drl"), rule.formatted("Param(name == \"maxPtc\", $max : value)", "low"));
        e = assertThrows(RuleLoadException.class, () -> LintEngine.load(
                new EngineOptions(false, java.util.List.of(dir), RunConfig.DEFAULT, null)));
        assertEquals(dir.resolve("r.drl") + ":11: rule \"r\": reads parameter 'maxPtc', which its @params does not declare (declared: maxPct)",
                e.getMessage());
        java.nio.file.Files.writeString(dir.resolve("r.drl"), rule.formatted("RuleParam(rule == \"p/r\", name == \"maxPct\", $max : value)", "low"));
        e = assertThrows(RuleLoadException.class, () -> LintEngine.load(
                new EngineOptions(false, java.util.List.of(dir), RunConfig.DEFAULT, null)));
        assertTrue(e.getMessage().startsWith(dir.resolve("r.drl") + ":11: rule \"r\": RuleParam is gone"), e.getMessage());
        // bound by the engine: the rule loads, and a configuration override is checked against the declared type
        java.nio.file.Files.writeString(dir.resolve("r.drl"), rule.formatted("Param(name == \"maxPct\", $max : value)", "low"));
        LintEngine engine = LintEngine.load(new EngineOptions(false, java.util.List.of(dir), RunConfig.DEFAULT, null));
        e = assertThrows(RuleLoadException.class, () -> engine.withConfig(RunConfig.DEFAULT.withParams(java.util.Map.of("p/r", java.util.Map.of("maxPct", 150.0)))));
        assertTrue(e.getMessage().contains("rule 'p/r' parameter 'maxPct' is a percentage from 0 to 100 (percent), not 150.0"), e.getMessage());
    }
}
