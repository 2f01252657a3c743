package dlproflint.findings;

import dlproflint.facts.IterationSummary;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ImpactTest {
    @Test
    void totalsBecomePerStepWhenTheRunWasSplitIntoAggregatedSteps() {
        IterationSummary it = new IterationSummary("ProfilerStep", true, "default", 12, 2, 11, 200e6, 1e6, IterationSummary.STEP_MARKERS, List.of());
        Impact i = Impact.fromTotal(400e6, 100e6, it, 2.4e9, "sync time");
        assertEquals(Impact.Basis.STEP, i.basis());
        assertEquals(40e6, i.lostNs(), 1e-6);
        assertEquals(10e6, i.savingNs(), 1e-6);
        assertEquals(20.0, i.sharePct(), 1e-9);
        assertEquals(5.0, i.savingPct(), 1e-9);
        assertEquals(5, i.rank(), "the rank is the share a fix recovers: the number findings are ordered and rated by");
    }

    @Test
    void withoutStepsTheImpactIsOverTheRange() {
        IterationSummary one = IterationSummary.none(1, 1e9, List.of());
        Impact i = Impact.fromTotal(250e6, 250e6, one, 1e9, "idle time");
        assertEquals(Impact.Basis.RUN, i.basis());
        assertEquals(25.0, i.sharePct(), 1e-9);
        assertEquals(25, i.rank());
    }

    @Test
    void sharesAreBoundedAndSavingNeverExceedsTheLoss() {
        Impact i = Impact.perStep(3e6, 1e6, 9e6, "m");
        assertEquals(100.0, i.sharePct());
        assertEquals(3e6, i.savingNs());
        Impact bad = Impact.overRun(Double.NaN, -5, Double.POSITIVE_INFINITY, null);
        assertEquals(0, bad.sharePct());
        assertEquals(0, bad.rank());
        assertEquals("", bad.model());
    }

    @Test
    void peopleReadTheCostPerStepOrOverTheRun() {
        assertEquals("≈ 41.0 ms/step, 18.0% of the step", Units.impact(Impact.perStep(41e6, 227.8e6, 41e6, "m")));
        assertEquals("≈ 1.20 s, 24.0% of the run", Units.impact(Impact.overRun(1.2e9, 5e9, 1.2e9, "m")));
        assertEquals("≈ 109.5 ms/step, 51.2% of the step; a fix recovers ≈ 57.5 ms/step (26.9%)",
                Units.impact(Impact.perStep(109.5e6, 213.87e6, 57.5e6, "m")));
        assertEquals("≈ 2 µs, <0.01% of the run", Units.impact(Impact.overRun(2e3, 1e9, 2e3, "m")));
    }
}
