package dlproflint.job;

import dlproflint.facts.CollectiveSummary;
import dlproflint.facts.JobFacts;
import dlproflint.facts.RankStats;
import dlproflint.findings.RankSummary;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JobReducerTest {
    private static JobFacts reduce(List<RankSummary> ranks) {
        List<JobRoster.Read> reads = new ArrayList<>();
        for (RankSummary r : ranks) reads.add(JobRoster.Read.ok(r.profile(), r));
        return JobReducer.reduce("job", JobRoster.of(reads));
    }

    @Test
    void theRankThatSpendsLeastInACollectiveArrivedLastAndTheOthersWaitTheDifference() {
        // ranks 0, 1, 3 spend 30 ms in all-reduce per step, rank 2 only 10 ms: it arrived 20 ms late
        int[] steps = {10, 11, 12};
        List<RankSummary> ranks = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            long c = r == 2 ? 10_000_000 : 30_000_000;
            ranks.add(Ranks.rank("r" + r + ".json", Ranks.info(r, 4), steps, new long[] {c, c, c}));
        }
        JobFacts f = reduce(ranks);
        assertEquals(3, f.job().alignedSteps());
        assertEquals("step-number", f.job().stepAlignment());
        RankStats r2 = f.ranks().get(2);
        assertEquals(3, r2.lastArrivals());
        assertEquals(0, r2.waitNs(), 1e-6);
        assertEquals(20_000_000, f.ranks().get(0).waitNs(), 1e-6);
        assertEquals(100_000_000, r2.workNs(), 1e-6);
        // its 20 ms wait is spread over the step's 4 all-reduce calls: it reaches each 5 ms before rank 2
        assertEquals(95_000_000, f.ranks().get(0).workNs(), 1e-6);
        assertEquals(20_000_000, f.job().waitNs().median(), 1e-6);
        CollectiveSummary ar = f.collectives().get(0);
        assertEquals(4.0, ar.callsPerStep(), 1e-9);
        assertEquals(4_000_000, ar.bytesPerStep(), 1e-9);
        assertEquals(100.0 * 60 / 100, ar.waitSharePct(), 1e-9, "60 ms of 100 ms per step over the four ranks waited");
        assertEquals(12, f.steps().size());
        assertEquals(50.0, f.job().overlapPct(), 1e-9);
    }

    @Test
    void equalTimesMeanNobodyArrivedLast() {
        int[] steps = {1, 2};
        List<RankSummary> ranks = new ArrayList<>();
        for (int r = 0; r < 3; r++) ranks.add(Ranks.rank("r" + r, Ranks.info(r, 3), steps, new long[] {5_000_000, 5_000_000}));
        JobFacts f = reduce(ranks);
        assertTrue(f.ranks().stream().allMatch(r -> r.lastArrivals() == 0 && r.waitNs() == 0));
    }

    @Test
    void differentStepCountsAlignOnTheCommonStepsAndSaySo() {
        List<RankSummary> ranks = List.of(
                Ranks.rank("r0", Ranks.info(0, 2), new int[] {4, 5, 6, 7}, new long[] {1, 1, 1, 1}),
                Ranks.rank("r1", Ranks.info(1, 2), new int[] {5, 6}, new long[] {1, 1}));
        JobFacts f = reduce(ranks);
        assertEquals(2, f.job().alignedSteps());
        assertEquals(List.of(5, 6), f.steps().stream().filter(s -> s.rank() == 0).map(s -> s.step()).toList());
        assertTrue(f.notes().stream().anyMatch(n -> n.contains("rank 0 has 4 (4-7)") && n.contains("aligned on the 2 steps every rank has (5-6)")),
                f.notes().toString());
    }

    @Test
    void stepNumbersWithNothingInCommonAlignByPosition() {
        List<RankSummary> ranks = List.of(
                Ranks.rank("r0", Ranks.info(0, 2), new int[] {4, 5, 6}, new long[] {1, 1, 1}),
                Ranks.rank("r1", Ranks.info(1, 2), new int[] {0, 1}, new long[] {1, 1}));
        JobFacts f = reduce(ranks);
        assertEquals("position", f.job().stepAlignment());
        assertEquals(2, f.job().alignedSteps());
        assertTrue(f.notes().get(0).contains("aligned by position, the first 2 of every rank"), f.notes().toString());
    }

    @Test
    void missingRanksAreListedCompactly() {
        List<RankSummary> ranks = List.of(
                Ranks.rank("r0", Ranks.info(0, 12), new int[] {1}, new long[] {1}),
                Ranks.rank("r4", Ranks.info(4, 12), new int[] {1}, new long[] {1}),
                Ranks.rank("r5", Ranks.info(5, 12), new int[] {1}, new long[] {1}));
        JobFacts f = reduce(ranks);
        assertEquals("1-3,6-11", f.job().missingRanks());
        assertEquals(9, f.job().missingCount());
    }
}
