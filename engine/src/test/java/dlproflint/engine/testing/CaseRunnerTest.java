package dlproflint.engine.testing;

import dlproflint.findings.Finding;
import dlproflint.engine.LintEngine;
import dlproflint.engine.RuleLoadException;
import dlproflint.engine.pack.PackFile;
import dlproflint.facts.Direction;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.Stat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CaseRunnerTest {
    private static CaseRunner runner;

    @BeforeAll
    static void load() throws Exception {
        Method m = Class.forName("dlproflint.engine.SharedEngine").getDeclaredMethod("get");
        m.setAccessible(true);
        runner = new CaseRunner((LintEngine) m.invoke(null));
    }

    private static CaseFile cases(String yaml) throws RuleLoadException {
        return CaseFile.parse(new PackFile("x.cases.yaml", "/site/x.cases.yaml", yaml.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void thePacksOwnCasesPass() {
        SuiteResult r = runner.runAll();
        assertEquals(6, r.results().size(), r.render());
        assertTrue(r.ok(), r.render());
    }

    @Test
    void aWrongExpectationFailsAndPrintsTheActualFindings() throws RuleLoadException {
        CaseFile f = cases("""
                rule: demo/low-gpu-util
                cases:
                  - name: expects two but gets one
                    facts: {breakdown: {wallNs: 5, gpuUtilizationPct: 20}}
                    expect: [{count: 2, messageContains: "below"}]
                  - name: negative case that fires
                    facts: {breakdown: {wallNs: 5, gpuUtilizationPct: 20}}
                    expect: []
                  - name: right count, wrong text
                    facts: {breakdown: {wallNs: 5, gpuUtilizationPct: 20}}
                    expect: [{messageContains: "above"}]
                  - name: wrong message id and data
                    facts: {breakdown: {wallNs: 5, gpuUtilizationPct: 20}}
                    expect: [{messageId: high, data: {gpuUtilizationPct: 30}}]
                """);
        CaseResult two = runner.run("demo", f, f.cases().get(0));
        assertFalse(two.passed());
        assertTrue(two.failure().startsWith("/site/x.cases.yaml:3: case \"expects two but gets one\" failed:"), two.failure());
        assertTrue(two.failure().contains("expected 2 x demo/low-gpu-util, got 1"), two.failure());
        assertTrue(two.failure().contains("problem: \"GPU utilization 20.0% is below 50%\""), two.failure());
        CaseResult neg = runner.run("demo", f, f.cases().get(1));
        assertTrue(neg.failure().contains("expected 0 x demo/low-gpu-util, got 1"), neg.failure());
        CaseResult text = runner.run("demo", f, f.cases().get(2));
        assertTrue(text.failure().contains("but 0 finding(s) match (first: message does not contain \"above\")"), text.failure());
        CaseResult id = runner.run("demo", f, f.cases().get(3));
        // as ESLint's RuleTester: what differs, then the actual findings with their message id and data, ready to paste
        assertTrue(id.failure().contains("(first: messageId is low; data gpuUtilizationPct is 20.0)"), id.failure());
        assertTrue(id.failure().contains("messageId: low, data: {gpuUtilizationPct: 20.0, maxGpuUtilPct: 50.0}"), id.failure());
    }

    @Test
    void expectationsCanPinSubjectSeverityAndEvidence() throws RuleLoadException {
        CaseFile f = cases("""
                rule: demo/low-gpu-util
                cases:
                  - name: all match
                    facts: {breakdown: {wallNs: 5, gpuUtilizationPct: 20}}
                    expect: [{subject: profile, severity: warning, evidence: {gpuUtilizationPct: 20, maxGpuUtilPct: 50.0}}]
                  - name: wrong evidence value
                    facts: {breakdown: {wallNs: 5, gpuUtilizationPct: 20}}
                    expect: [{evidence: {gpuUtilizationPct: 21}}]
                  - name: wrong subject and severity
                    facts: {breakdown: {wallNs: 5, gpuUtilizationPct: 20}}
                    expect: [{subject: "gpu:0", severity: error}]
                """);
        List<CaseResult> r = f.cases().stream().map(c -> runner.run("demo", f, c)).toList();
        assertTrue(r.get(0).passed(), r.get(0).failure());
        assertTrue(r.get(1).failure().contains("0 finding(s) match (first: evidence gpuUtilizationPct is 20.0)"), r.get(1).failure());
        assertTrue(r.get(2).failure().contains("first: subject is profile; severity is warning"), r.get(2).failure());
    }

    @Test
    void unknownParamAndUnknownFactFieldFailTheCase() throws RuleLoadException {
        CaseFile f = cases("""
                rule: demo/low-gpu-util
                cases:
                  - name: typo in param
                    params: {maxGpuUtil: 3}
                    expect: []
                  - name: typo in fact field
                    facts: {breakdown: {gpuUtilPct: 20}}
                    expect: []
                """);
        assertTrue(runner.run("demo", f, f.cases().get(0)).failure().contains("has no parameter 'maxGpuUtil'"));
        String typo = runner.run("demo", f, f.cases().get(1)).failure();
        assertTrue(typo.contains("facts.breakdown.gpuUtilPct: TimeBreakdown has no field 'gpuUtilPct'"), typo);
    }

    @Test
    void malformedCasesFileIsRejectedWithFileAndLine() {
        RuleLoadException e = assertThrows(RuleLoadException.class, () -> cases("""
                rule: demo/low-gpu-util
                cases:
                  - name: no expect
                    facts: {}
                """));
        assertEquals("/site/x.cases.yaml:3: case \"no expect\" needs 'expect:' (a list; [] for a negative case)", e.getMessage());
    }

    @Test
    void partialFactsTakeBuilderDefaults() throws Exception {
        FactsYaml y = new FactsYaml(getClass().getClassLoader());
        var doc = new com.fasterxml.jackson.databind.ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readTree("""
                iterationSummary: {total: 3}
                ops:
                  - {id: A, gpuTime: 7}
                dataLoader: {workers: 0, calls: 3}
                """);
        ProfileFacts p = y.read(doc, "case.yaml");
        assertEquals(new IterationSummary(null, false, "none", 3, 0, -1, 0, 0, IterationSummary.NONE, List.of()), p.iterationSummary());
        OpFact op = p.ops().get(0);
        assertEquals(Stat.of(7), op.gpuTime());
        assertEquals(Stat.EMPTY, op.cpuTime());
        assertEquals(Direction.NA, op.direction());
        assertEquals(List.of(), op.stack());
        assertEquals("case.yaml", p.profile().path());
        assertTrue(p.kernels().isEmpty());
        // unwritten numbers are 0: no replayed step, so not replayed
        assertEquals(new dlproflint.facts.DataLoaderStat(0, 3, 0, 0, 0, 0), p.dataLoader());
        assertFalse(p.dataLoader().replayed());
        assertEquals(ProfileFacts.builder().profile(p.profile()).build().modelConfig(), p.modelConfig());
    }

    @Test
    void sourceLocationComesThroughTheHarness() throws RuleLoadException {
        CaseFile f = cases("""
                rule: demo/slow-op
                cases:
                  - name: located
                    facts:
                      ops: [{id: C, name: c, gpuTime: 9000, stack: [{file: m.py, line: 7, function: f}]}]
                    expect: [{}]
                """);
        CaseResult r = runner.run("demo", f, f.cases().get(0));
        assertNull(r.failure());
        Finding x = r.actual().get(0);
        assertEquals("m.py:7", x.location().toString());
    }
}
