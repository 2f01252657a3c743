package dlproflint.extract.common;

import dlproflint.facts.ExtractionWarning;
import dlproflint.facts.IterationCandidate;
import dlproflint.facts.IterationSummary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The decision, level by level, on evidence built here instance by instance (the readers' own corpus and
 * variant tests cover the gathering). Times are in ns; a "step" below is 100 ns long unless said otherwise.
 */
class IterationDiscoveryTest {
    private static final long MAIN = 1;
    private static final long OTHER = 2;

    /** n training steps of period 100 on the main thread: DataLoader, forward ops, optimizer, as PyTorch records them. */
    private static IterationEvidence trainingLoop(IterationEvidence ev, int n, boolean profilerSteps, boolean dataLoader,
                                                  boolean optimizer) {
        for (int i = 0; i < n; i++) {
            long t = 1000 + i * 100L;
            if (profilerSteps) ev.range("ProfilerStep#" + (5 + i), null, t, t + 100, MAIN);
            if (dataLoader) ev.range("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", null, t + 1, t + 30, MAIN);
            ev.range("aten::to", null, t + 31, t + 35, MAIN);
            ev.range("aten::conv2d", null, t + 36, t + 50, MAIN);
            ev.range("aten::conv2d", null, t + 51, t + 60, MAIN);
            ev.range("aten::relu", null, t + 61, t + 70, MAIN);
            if (optimizer) ev.range("Optimizer.step#SGD.step", null, t + 80, t + 95, MAIN);
        }
        return ev;
    }

    private static IterationEvidence evidence() {
        return new IterationEvidence(null, null);
    }

    private static long[] starts(IterationSplit s) {
        long[] out = new long[s.iterations().count()];
        for (int i = 0; i < out.length; i++) out[i] = s.iterations().start(i);
        return out;
    }

    private static long[] stops(IterationSplit s) {
        long[] out = new long[s.iterations().count()];
        for (int i = 0; i < out.length; i++) out[i] = s.iterations().stop(i);
        return out;
    }

    private static List<String> codes(IterationSplit s) {
        return s.warnings().stream().map(ExtractionWarning::code).toList();
    }

    @Test
    void profilerStepRangesAreTheStepsThemselves() {
        IterationSplit s = IterationDiscovery.decide(trainingLoop(evidence(), 4, true, true, true), 0, 2000);
        assertEquals(IterationSummary.STEP_MARKERS, s.method());
        assertEquals("ProfilerStep#N", s.keyNode());
        assertArrayEquals(new long[] {1000, 1100, 1200, 1300}, starts(s));
        assertArrayEquals(new long[] {1100, 1200, 1300, 1400}, stops(s));
        assertEquals(List.of(), s.warnings());
        IterationSummary sum = s.summary(s.aggregation(null, null));
        assertEquals(100, sum.avgDurationNs());
        assertEquals("step markers ProfilerStep#N", sum.howFound());
    }

    @Test
    void aKeyNodeNamesAFamilyAndKeepsDlprofsRule() {
        IterationEvidence ev = trainingLoop(new IterationEvidence("ProfilerStep", null), 4, true, true, true);
        IterationSplit s = IterationDiscovery.decide(ev, 0, 2000);
        assertEquals(IterationSummary.USER_KEY_NODE, s.method());
        // 4 instances stop at 1100..1400: N+1 intervals from the capture start to its end
        assertArrayEquals(new long[] {0, 1100, 1200, 1300, 1400}, starts(s));
        assertEquals(2000, s.iterations().stop(4));
        assertTrue(StepNames.keyMatches("ProfilerStep#N", "ProfilerStep#12"));
        assertTrue(StepNames.keyMatches("iter", "iter_5"));
        assertTrue(StepNames.keyMatches("step", "step 12"));
        assertTrue(StepNames.keyMatches("Optimizer.step*", "Optimizer.step#SGD.step"));
        assertFalse(StepNames.keyMatches("step", "stepper"));
        assertFalse(StepNames.keyMatches("aten::conv", "aten::conv2d"));
        // the first character's quick refusal keeps the matches that do not start alike: wildcards and counters at
        // the start of the name
        assertTrue(StepNames.keyMatches("*", "anything"));
        assertTrue(StepNames.keyMatches("N_step", "12_step"));
        assertFalse(StepNames.keyMatches("global_step", "aten::add, seq = 1"));
        assertFalse(StepNames.keyMatches("step", ""));
    }

    @Test
    void aMissingKeyNodeFallsBackToTheNextEvidenceAndSaysSo() {
        IterationEvidence ev = trainingLoop(new IterationEvidence("no_such_op", null), 4, true, false, false);
        IterationSplit s = IterationDiscovery.decide(ev, 0, 2000);
        assertEquals(IterationSummary.STEP_MARKERS, s.method());
        assertEquals(4, s.iterations().count());
        assertEquals("key node 'no_such_op' not found; iterations were found by step markers ProfilerStep#N instead",
                s.warnings().get(0).message());
    }

    @Test
    void dataLoaderCallsStartStepsAndTheLastLastsOneMedianPeriod() {
        IterationSplit s = IterationDiscovery.decide(trainingLoop(evidence(), 5, false, true, true), 0, 5000);
        assertEquals(IterationSummary.INFERRED_DATALOADER, s.method());
        assertArrayEquals(new long[] {1001, 1101, 1201, 1301, 1401}, starts(s));
        assertArrayEquals(new long[] {1101, 1201, 1301, 1401, 1501}, stops(s), "not to the end of the capture (5000)");
        assertTrue(s.summary(s.aggregation(null, null)).inferred());
    }

    @Test
    void optimizerStepsEndStepsAndTheFirstBeganOneMedianPeriodEarlier() {
        IterationSplit s = IterationDiscovery.decide(trainingLoop(evidence(), 5, false, false, true), 0, 5000);
        assertEquals(IterationSummary.INFERRED_OPTIMIZER, s.method());
        assertArrayEquals(new long[] {995, 1095, 1195, 1295, 1395}, starts(s), "not from the start of the capture (0)");
        assertArrayEquals(new long[] {1095, 1195, 1295, 1395, 1495}, stops(s));
    }

    @Test
    void withoutLandmarksTheFirstOpThatRunsOncePerStepStartsIt() {
        IterationSplit s = IterationDiscovery.decide(trainingLoop(evidence(), 6, false, false, false), 0, 5000);
        assertEquals(IterationSummary.INFERRED_REPEATING_OP, s.method());
        // aten::to and aten::relu run once per step, aten::conv2d twice: aten::to comes first in the step
        assertEquals("aten::to", s.keyNode());
        assertEquals(6, s.iterations().count());
        assertEquals(1031, s.iterations().start(0));
    }

    @Test
    void opsRepeatingInsideOneEnclosingRangeAreLayersOfOneStepNotSteps() {
        IterationEvidence ev = evidence();
        ev.range("execute_model", null, 0, 10_000, MAIN);
        for (int layer = 0; layer < 36; layer++) {
            long t = 100 + layer * 250L;
            ev.range("aten::pad", null, t, t + 50, MAIN);
            ev.range("moe_forward", null, t + 60, t + 200, MAIN);
        }
        IterationSplit s = IterationDiscovery.decide(ev, 0, 10_000);
        assertEquals(IterationSummary.NONE, s.method());
        assertFalse(s.found());
        assertEquals(1, s.iterations().count());
        List<IterationCandidate> c = s.candidates();
        assertFalse(c.isEmpty(), "the repeating layers are proposed, not chosen");
        assertEquals(36, c.get(0).instances());
        assertEquals(250, c.get(0).medianPeriodNs());
        assertTrue(codes(s).contains("no-iterations"));
        assertTrue(s.warnings().get(0).message().contains("closest step candidates: "), s.warnings().toString());
        assertTrue(s.warnings().get(0).message().contains("they all repeat inside the single range 'execute_model'"),
                s.warnings().toString());
    }

    @Test
    void numberedFamiliesOfAnyNameAreStepMarkers() {
        IterationEvidence ev = evidence();
        ev.range("serve", null, 0, 6500, MAIN);
        for (int tok = 0; tok < 64; tok++) {
            long t = 100 + tok * 100L;
            ev.range("token_" + tok + "_processing", null, t, t + 99, MAIN);
            for (int layer = 0; layer < 8; layer++) {
                ev.range("layer_" + layer + "_token_" + tok, null, t + layer * 12, t + layer * 12 + 10, MAIN);
            }
        }
        IterationSplit s = IterationDiscovery.decide(ev, 0, 7000);
        assertEquals(IterationSummary.NUMBERED_RANGES, s.method());
        assertEquals("token_N_processing", s.keyNode(), "the family that fills the run, not one layer's");
        assertEquals(64, s.iterations().count());
        assertEquals(299, s.iterations().stop(1));
    }

    @Test
    void aStepLikeNameIsEnoughForAShortNumberedRange() {
        IterationEvidence ev = evidence();
        for (int i = 0; i < 5; i++) {
            long t = i * 1000L;
            ev.range("iter_" + (10 + i), null, t, t + 100, MAIN); // a mark-like range at the start of each step
            ev.range("work", null, t + 100, t + 900, MAIN);
        }
        IterationSplit s = IterationDiscovery.decide(ev, 0, 5000);
        assertEquals(IterationSummary.NUMBERED_RANGES, s.method());
        assertEquals("iter_N", s.keyNode());
        assertArrayEquals(new long[] {1000, 2000, 3000, 4000, 5000}, stops(s), "short markers start steps, they are not the steps");
    }

    @Test
    void bracketedIndexesAreNotCounters() {
        // DLProf module paths number calls of the same layer: fc[1], fc[2], fc[3] in one forward pass
        IterationEvidence ev = evidence();
        for (int i = 1; i <= 3; i++) ev.range("/net/Linear[" + i + "]/linear", null, i * 100L, i * 100L + 99, MAIN);
        ev.range("/net/loss", null, 0, 10_000, OTHER);
        assertEquals(IterationSummary.NONE, IterationDiscovery.decide(ev, 0, 10_000).method());
        assertEquals(List.of(), StepNames.counters("fc[2]"));
        assertEquals(List.of(new StepNames.Counter("step N", 12)), StepNames.counters("step 12"));
    }

    @Test
    void repeatedRangesWithAStepLikeNameAreSteps() {
        IterationEvidence ev = evidence();
        for (int i = 0; i < 4; i++) ev.range("train_step", null, i * 100L, i * 100L + 95, MAIN);
        IterationSplit s = IterationDiscovery.decide(ev, 0, 400);
        assertEquals(IterationSummary.NAMED_RANGES, s.method());
        assertEquals(4, s.iterations().count());
        assertTrue(StepNames.stepHint("train_step"));
        assertTrue(StepNames.namedStep("train_step"));
        assertTrue(StepNames.stepHint("batch_12"), "a counted batch is a step");
        assertFalse(StepNames.namedStep("## load_batch ##"), "loading a batch is part of a step");
        assertFalse(StepNames.stepHint("aten::batch_norm"));
        assertFalse(StepNames.stepHint("Optimizer.step#Adam.step"));
    }

    // ---------------------------------------------------------------- contradicting markers

    @Test
    void overlappingStepsAreCutWhereTheNextOneStarts() {
        IterationEvidence ev = evidence();
        ev.range("ProfilerStep#1", null, 0, 150, MAIN);
        ev.range("ProfilerStep#2", null, 100, 200, MAIN);
        ev.range("ProfilerStep#3", null, 200, 300, MAIN);
        IterationSplit s = IterationDiscovery.decide(ev, 0, 300);
        assertArrayEquals(new long[] {100, 200, 300}, stops(s));
        assertEquals(List.of("step-markers-overlap"), codes(s));
        assertTrue(s.warnings().get(0).message().startsWith("1 ProfilerStep#N range overlap"), s.warnings().toString());
    }

    @Test
    void aStepNestedInAnotherIsIgnored() {
        IterationEvidence ev = evidence();
        ev.range("ProfilerStep#1", null, 0, 100, MAIN);
        ev.range("ProfilerStep#2", null, 100, 300, MAIN);
        ev.range("ProfilerStep#3", null, 150, 250, MAIN);
        ev.range("ProfilerStep#4", null, 300, 400, MAIN);
        IterationSplit s = IterationDiscovery.decide(ev, 0, 400);
        assertArrayEquals(new long[] {0, 100, 300}, starts(s));
        assertTrue(codes(s).contains("step-markers-nested"), codes(s).toString());
        assertTrue(codes(s).contains("step-numbering-gap"), "#3 went with the nested range");
    }

    @Test
    void numberedStepsOnSeveralThreadsAreMergedByNumber() {
        IterationEvidence ev = evidence();
        for (int i = 0; i < 3; i++) {
            ev.range("ProfilerStep#" + i, null, i * 100L, i * 100L + 90, MAIN);
            ev.range("ProfilerStep#" + i, null, i * 100L + 5, i * 100L + 98, OTHER); // a second rank's copy
        }
        IterationSplit s = IterationDiscovery.decide(ev, 0, 300);
        assertEquals(3, s.iterations().count());
        assertArrayEquals(new long[] {0, 100, 200}, starts(s));
        assertArrayEquals(new long[] {98, 198, 298}, stops(s));
        assertEquals(List.of("step-markers-threads"), codes(s));
    }

    @Test
    void unnumberedStepsOnSeveralThreadsComeFromTheThreadWithMost() {
        IterationEvidence ev = evidence();
        for (int i = 0; i < 4; i++) ev.range("train_step", null, i * 100L, i * 100L + 95, MAIN);
        ev.range("train_step", null, 50, 140, OTHER);
        IterationSplit s = IterationDiscovery.decide(ev, 0, 400);
        assertEquals(4, s.iterations().count());
        assertArrayEquals(new long[] {0, 100, 200, 300}, starts(s));
        assertEquals(IterationSummary.NAMED_RANGES, s.method());
        assertEquals(List.of("step-markers-threads"), codes(s));
    }

    @Test
    void numberingGapsAndRepeatsAreReportedAndTimeOrderWins() {
        IterationEvidence ev = evidence();
        long[] numbers = {5, 6, 9, 9, 8};
        for (int i = 0; i < numbers.length; i++) ev.range("ProfilerStep#" + numbers[i], null, i * 100L, i * 100L + 100, MAIN);
        IterationSplit s = IterationDiscovery.decide(ev, 0, 500);
        assertEquals(5, s.iterations().count(), "every marked step is an iteration, none is lost");
        assertEquals(List.of("step-numbering-gap", "step-numbering-order"), codes(s));
        assertTrue(s.warnings().get(0).message().contains("2 steps missing: 7-8"), s.warnings().toString());
    }

    @Test
    void noEvidenceAtAllIsOneIterationAndSaysWhy() {
        IterationSplit s = IterationDiscovery.decide(evidence(), 10, 500);
        assertEquals(IterationSummary.NONE, s.method());
        assertNull(s.keyNode());
        assertEquals(1, s.iterations().count());
        assertEquals(10, s.iterations().start(0));
        assertEquals(500, s.iterations().stop(0));
        assertEquals("no key node, step markers or regularly repeating step were found (the profile has no named ranges or ops): "
                + "the whole profile is one iteration", s.warnings().get(0).message());
    }

    @Test
    void anAggregationRangeOutsideTheIterationsIsClampedWithAWarning() {
        IterationSplit s = IterationDiscovery.decide(trainingLoop(evidence(), 4, true, false, false), 0, 2000);
        assertArrayEquals(new int[] {2, 3}, s.aggregation(2, 9));
        assertTrue(codes(s).contains("iteration-range"));
    }

    // ---------------------------------------------------------------- bounded memory

    @Test
    void frequentNamesAreCountedButNotKeptWhileLandmarksAlwaysAre() {
        IterationEvidence ev = evidence();
        // 40 names just under the first cap: together over the budget
        int perName = IterationEvidence.BUDGET / 32;
        for (int name = 0; name < 40; name++) {
            String n = "aten::op" + name;
            for (int i = 0; i < perName; i++) ev.range(n, null, i, i + 1, MAIN);
        }
        for (int i = 0; i < 3; i++) ev.range("enumerate(DataLoader)#x.__next__", null, i * 10L, i * 10L + 1, MAIN);
        assertTrue(ev.cap() < IterationEvidence.FIRST_CAP, "the cap tightened");
        long stored = ev.families().stream().filter(f -> !f.dropped()).mapToLong(f -> f.instances.size()).sum();
        assertTrue(stored <= IterationEvidence.BUDGET, "stored " + stored);
        assertTrue(ev.families().stream().allMatch(f -> f.count > 0));
        IterationSplit s = IterationDiscovery.decide(ev, 0, 2_000_000);
        assertEquals(IterationSummary.INFERRED_DATALOADER, s.method());
    }

    @Test
    void coverageIsCountedOncePerIterationWindow() {
        Iterations its = Iterations.ofWindows(new long[] {0, 100, 300}, new long[] {100, 200, 400});
        long[] covered = its.coveredPerIteration(new long[] {50, 60, 150, 250}, new long[] {80, 120, 260, 350});
        assertArrayEquals(new long[] {50, 70, 50}, covered, "[50,120) and [150,350) in windows [0,100) [100,200) [300,400)");
        assertEquals(1, its.indexOf(250), "a gap between windows belongs to the step before it");
    }
}
