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
        assertEquals(5, i.rank());
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
}
