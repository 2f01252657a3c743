package dlproflint.engine.testing;

import dlproflint.engine.Budget;
import dlproflint.engine.RuleLoadException;
import dlproflint.engine.pack.PackFile;
import dlproflint.findings.Finding;
import dlproflint.findings.Impact;
import dlproflint.findings.Severity;
import dlproflint.findings.Subject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code impact:} and {@code budgets:} of rule cases, and the {@link Budget} they build. */
class ImpactExpectationTest {
    private static CaseFile cases(String yaml) throws RuleLoadException {
        return CaseFile.parse(new PackFile("x.cases.yaml", "/site/x.cases.yaml", yaml.getBytes(StandardCharsets.UTF_8)));
    }

    private static Finding finding(Impact impact) {
        return new Finding("p/r", "p", "1", Severity.ERROR, "c", "problem", "fix", Map.of(), Subject.profile(), null, null,
                "x", "fp", impact);
    }

    @Test
    void sharesWithinAFifthOfATenthOfAPointDurationsWithinATenthOfAPercent() throws RuleLoadException {
        CaseFile f = cases("""
                rule: p/r
                cases:
                  - name: the case
                    facts: {}
                    expect: [{impact: {basis: step, sharePct: 18.0, savingPct: 9.0, lostNs: 41000000, modelContains: "blocked"}}]
                """);
        Expectation e = f.cases().get(0).expect().get(0);
        Impact ok = Impact.perStep(41.02e6, 227.8e6, 20.5e6, "host time blocked in cudaDeviceSynchronize");
        assertEquals(List.of(), e.mismatches(finding(ok)), "18.007% and 8.999% are 18.0 and 9.0; 41.02 ms is 41 ms");
        Impact off = Impact.overRun(45e6, 227.8e6, 10e6, "idle time");
        assertEquals(List.of("impact basis is run", "impact sharePct is 19.75", "impact savingPct is 4.39",
                "impact lostNs is 45000000", "impact model is \"idle time\""), e.mismatches(finding(off)));
        assertEquals(List.of("finding has no impact"), e.mismatches(finding(null)));
    }

    @Test
    void impactNoneAssertsTheFindingCarriesNone() throws RuleLoadException {
        CaseFile f = cases("""
                rule: p/r
                cases:
                  - name: the case
                    facts: {}
                    expect: [{impact: none}]
                """);
        Expectation e = f.cases().get(0).expect().get(0);
        assertEquals(List.of(), e.mismatches(finding(null)));
        assertTrue(e.mismatches(finding(Impact.perStep(1, 10, 1, "m"))).get(0).startsWith("impact is {basis: step, sharePct: 10.00"));
    }

    @Test
    void malformedImpactOrBudgetsNameTheCaseAndLine() {
        String msg = assertThrows(RuleLoadException.class, () -> cases("""
                rule: p/r
                cases:
                  - name: the case
                    facts: {}
                    expect: [{impact: {share: 3}}]
                """)).getMessage();
        assertTrue(msg.startsWith("/site/x.cases.yaml:3: case \"the case\" impact: unknown key 'share'"), msg);
        msg = assertThrows(RuleLoadException.class, () -> cases("""
                rule: p/r
                cases:
                  - name: the case
                    facts: {}
                    expect: [{impact: {basis: iteration}}]
                """)).getMessage();
        assertTrue(msg.contains("impact basis is 'step' or 'run', not 'iteration'"), msg);
        msg = assertThrows(RuleLoadException.class, () -> cases("""
                rule: p/r
                cases:
                  - name: the case
                    budgets: {step-tim: {max: 3}}
                    facts: {}
                    expect: []
                """)).getMessage();
        assertTrue(msg.contains("case \"the case\": budgets: unknown metric 'step-tim' (known: step-time, step-time-p90"), msg);
        msg = assertThrows(RuleLoadException.class, () -> cases("""
                rule: p/r
                cases:
                  - name: the case
                    budgets: {step-time: {max: "3"}}
                    facts: {}
                    expect: []
                """)).getMessage();
        assertTrue(msg.contains("budgets.step-time.max must be a number"), msg);
    }

    @Test
    void budgetsAreWrittenInMillisecondsAndPercentAndChecked() throws RuleLoadException {
        CaseFile f = cases("""
                rule: p/r
                cases:
                  - name: the case
                    budgets: {step-time: {max: 250}, gpu-utilization: {min: 70}}
                    facts: {}
                    expect: []
                """);
        List<Budget> b = f.cases().get(0).budgets();
        assertEquals(new Budget("step-time", null, 250e6, "/site/x.cases.yaml:3"), b.get(0));
        assertEquals("≤ 250.0 ms", b.get(0).bounds());
        assertTrue(b.get(0).brokenBy(250.1e6) && !b.get(0).brokenBy(250e6));
        assertEquals("≥ 70.0%", b.get(1).bounds());
        assertTrue(b.get(1).brokenBy(69.9) && !b.get(1).brokenBy(70));
        assertEquals("between 10.0% and 20.0%", new Budget("dataloader-share", 10.0, 20.0, null).bounds());
        assertEquals("budget on gpu-utilization: min (80.0%) is above max (60.0%)",
                assertThrows(IllegalArgumentException.class, () -> Budget.fromConfig("gpu-utilization", 80.0, 60.0, null)).getMessage());
        assertEquals("budget on step-time: max must be a duration of 0 ms or more",
                assertThrows(IllegalArgumentException.class, () -> Budget.fromConfig("step-time", null, -1.0, null)).getMessage());
        assertEquals("budget on tensor-core-share needs min or max",
                assertThrows(IllegalArgumentException.class, () -> Budget.fromConfig("tensor-core-share", null, null, null)).getMessage());
    }
}
