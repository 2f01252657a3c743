package dlproflint.engine;

import dlproflint.findings.Finding;
import dlproflint.findings.Subject;
import dlproflint.findings.Severity;
import dlproflint.findings.RuleMetadata;
import dlproflint.findings.PackInfo;

import dlproflint.facts.Direction;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.StackFrame;
import dlproflint.facts.Stat;
import dlproflint.facts.TimeBreakdown;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine over the "demo" test pack: one compiled KieBase shared by all tests (compiling is slow). */
class LintEngineTest {
    private static LintEngine engine;

    @BeforeAll
    static void load() throws RuleLoadException {
        engine = SharedEngine.get();
    }

    private static ProfileFacts util(double gpuUtilPct) {
        return TestPacks.profile().breakdown(new TimeBreakdown(1_000_000, 0, gpuUtilPct, 0, gpuUtilPct, 0, 0, 0, 100 - gpuUtilPct, 0)).build();
    }

    private static OpFact op(String id, long avgGpuNs, StackFrame... stack) {
        return new OpFact(id, "model/" + id, "conv2d", Direction.FPROP, 2, Stat.EMPTY,
                new Stat(2, 2 * avgGpuNs, avgGpuNs, avgGpuNs), Stat.EMPTY, Stat.EMPTY, true, false, 0, 2, "float32", null, List.of(stack));
    }

    private static RunConfig params(String rule, String name, double v) {
        return RunConfig.DEFAULT.withParams(Map.of(rule, Map.of(name, v)));
    }

    @Test
    void packAndCatalogueComeFromManifestAndAnnotations() {
        assertEquals(List.of(new PackInfo("demo", "1.2.0", "Engine test pack (params, derive rule, source locations)",
                TestPacks.dir("valid").toString())), engine.packs());
        assertEquals(List.of("demo/boom", "demo/low-gpu-util", "demo/slow-op"), engine.rules().stream().map(RuleMetadata::id).toList(),
                "derive rules are not part of the catalogue");
        RuleMetadata m = engine.rule("demo/low-gpu-util").orElseThrow();
        assertEquals("Low GPU utilization", m.name());
        assertEquals(Severity.WARNING, m.severity());
        assertEquals("utilization", m.category());
        assertEquals("1.0.0", m.since());
        assertEquals("demo", m.packId());
        assertEquals("1.2.0", m.packVersion());
        assertEquals(List.of("pytorch", "tensorflow"), m.frameworks());
        assertEquals(List.of("nsys-sqlite"), m.inputs());
        assertEquals(List.of(new dlproflint.findings.ParamSpec("maxGpuUtilPct", dlproflint.findings.ParamType.PERCENT, "%", 50.0, List.of(), "fire below this GPU utilization")), m.params());
        assertEquals("https://example.org/demo/low-gpu-util.md", m.helpUri());
        assertTrue(m.helpMarkdown().startsWith("# demo/low-gpu-util"), m.helpMarkdown());
    }

    @Test
    void findingCarriesMetadataEvidenceAndFingerprint() {
        List<Finding> f = engine.lint(util(20));
        assertEquals(1, f.size(), f::toString);
        Finding x = f.get(0);
        assertEquals("demo/low-gpu-util", x.ruleId());
        assertEquals("demo", x.packId());
        assertEquals("1.2.0", x.packVersion());
        assertEquals(Severity.WARNING, x.severity());
        assertEquals("GPU utilization 20.0% is below 50%", x.problem());
        assertEquals(Map.of("gpuUtilizationPct", 20.0, "maxGpuUtilPct", 50.0), x.evidence());
        assertEquals("/tmp/p.sqlite", x.profilePath());
        assertEquals(Subject.profile(), x.subject());
        assertEquals(32, x.fingerprint().length());
        assertEquals(x.fingerprint(), engine.lint(util(30)).get(0).fingerprint(), "measurements are not part of the fingerprint");
        assertTrue(engine.lint(util(80)).isEmpty());
    }

    @Test
    void paramOverrideChangesThresholdWithoutRecompiling() throws RuleLoadException {
        LintEngine strict = engine.withConfig(params("demo/low-gpu-util", "maxGpuUtilPct", 10));
        assertTrue(strict.lint(util(20)).isEmpty());
        assertEquals(1, strict.lint(util(5)).size());
    }

    @Test
    void unknownParamIsAConfigurationError() {
        RuleLoadException e = assertThrows(RuleLoadException.class,
                () -> engine.withConfig(params("demo/low-gpu-util", "maxGpuUtil", 10)));
        assertEquals("configuration: rule 'demo/low-gpu-util' has no parameter 'maxGpuUtil' (declared: maxGpuUtilPct)", e.getMessage());
        // ids of packs not loaded in this run are the CLI's to warn about, not an engine error
        assertEquals(1, assertDoesNotThrow(() -> engine.withConfig(RunConfig.DEFAULT.withSelection(Set.of(), Set.of("other/rule"))
                .withParams(Map.of("other/rule", Map.of("x", 1.0))))).lint(util(20)).size());
    }

    @Test
    void disableEnableAndSeverityOverride() throws RuleLoadException {
        ProfileFacts facts = TestPacks.profile().breakdown(new TimeBreakdown(1_000_000, 0, 20, 0, 20, 0, 0, 0, 80, 0))
                .op(op("CONV_1", 5000)).build();
        assertEquals(List.of("demo/low-gpu-util", "demo/slow-op"), engine.lint(facts).stream().map(Finding::ruleId).toList());
        LintEngine disabled = engine.withConfig(RunConfig.DEFAULT.withSelection(Set.of(), Set.of("demo/low-gpu-util")));
        assertEquals(List.of("demo/slow-op"), disabled.lint(facts).stream().map(Finding::ruleId).toList(),
                "the derive rule feeding slow-op still runs when only slow-op is enabled");
        LintEngine onlyUtil = engine.withConfig(RunConfig.DEFAULT.withSelection(Set.of("demo/low-gpu-util"), Set.of())
                .withSeverityOverrides(Map.of("demo/low-gpu-util", Severity.ERROR)));
        List<Finding> f = onlyUtil.lint(facts);
        assertEquals(1, f.size());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertEquals(Severity.WARNING, onlyUtil.rule("demo/low-gpu-util").orElseThrow().severity(), "catalogue keeps the default");
    }

    @Test
    void deriveRuleParamsAndSourceLocation() throws RuleLoadException {
        StackFrame where = new StackFrame("train.py", 42, "forward");
        ProfileFacts facts = TestPacks.profile().op(op("CONV_1", 5000, where)).op(op("RELU_1", 10)).build();
        List<Finding> f = engine.lint(facts);
        assertEquals(1, f.size(), f::toString);
        assertEquals(Subject.op("CONV_1", "model/CONV_1"), f.get(0).subject());
        assertEquals(where, f.get(0).location());
        assertEquals(Severity.NOTE, f.get(0).severity());
        assertNotEquals(engine.lint(util(20)).get(0).fingerprint(), f.get(0).fingerprint(), "rule and subject feed the fingerprint");
        assertTrue(engine.withConfig(params("demo/derive-slow-op", "minAvgGpuNs", 6000)).lint(facts).isEmpty());
    }

    @Test
    void aRuleThatThrowsIsNamedWithItsFileAndTheProfile() {
        ProfileFacts boom = ProfileFacts.builder().profile(new dlproflint.facts.ProfileInfo("boom", "nsys-sqlite", null, null, 0, 0)).build();
        dlproflint.engine.run.RuleFailure e = assertThrows(dlproflint.engine.run.RuleFailure.class, () -> engine.lint(boom));
        assertEquals("rule demo/boom (" + TestPacks.dir("valid").resolve("boom.drl") + ":6) failed on boom: "
                + "java.lang.IllegalStateException: kaboom", e.getMessage());
    }

    @Test
    void pinnedVersionMismatchIsAnError() {
        RuleLoadException e = assertThrows(RuleLoadException.class, () -> engine.withConfig(
                RunConfig.DEFAULT.withPackVersions(Map.of("demo", "2.0.0"))));
        assertTrue(e.getMessage().contains("pinned pack 'demo' 2.0.0 is not loaded (loaded: 1.2.0)"), e.getMessage());
        assertTrue(assertDoesNotThrowPin().lint(util(20)).size() == 1);
    }

    private static LintEngine assertDoesNotThrowPin() {
        try {
            return engine.withConfig(RunConfig.DEFAULT.withPackVersions(Map.of("demo", "1.2.0")));
        } catch (RuleLoadException e) {
            throw new AssertionError(e);
        }
    }
}
