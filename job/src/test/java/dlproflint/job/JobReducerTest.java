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

    /**
     * A Gloo job: DDP's buffer broadcasts run as two works at once on the process group's worker threads, each waiting
     * for rank 1, which arrives 60 ms late; the all-reduces queue behind each other and wait little. The 60 ms are
     * waited once (in flight at the same time), and rank 1 reaches its collectives 60 ms after the others.
     */
    @Test
    void hostCollectivesRunningAtOnceWaitForTheLateRankOnce() {
        int[] steps = {2, 3};
        List<RankSummary> ranks = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            long late = r == 1 ? 0 : 60_000_000;
            List<dlproflint.facts.StepActivity> acts = new ArrayList<>();
            List<dlproflint.facts.CollectiveCalls> calls = new ArrayList<>();
            for (int s : steps) {
                acts.add(new dlproflint.facts.StepActivity(s, s * 100_000_000L, 100_000_000, 5_000_000, late + 20_000_000,
                        late + 18_000_000, 0, r == 1 ? 75_000_000 : 15_000_000));
                calls.add(new dlproflint.facts.CollectiveCalls(s, dlproflint.facts.CollectiveKind.BROADCAST, true, 2,
                        2 * (late + 500_000), late + 600_000, 40_000));
                calls.add(new dlproflint.facts.CollectiveCalls(s, dlproflint.facts.CollectiveKind.ALL_REDUCE, true, 3,
                        30_000_000, 20_000_000, 45_000_000));
            }
            ranks.add(new RankSummary("r" + r, "kineto", Ranks.info(r, 4), acts, calls, List.of(), null, null, List.of()));
        }
        JobFacts f = reduce(ranks);
        RankStats r0 = f.ranks().get(0);
        RankStats r1 = f.ranks().get(1);
        assertEquals(2, r1.lastArrivals());
        assertEquals(60_000_000, r0.waitNs(), 1e-6, "in flight 60 ms longer than rank 1's, waited once");
        assertEquals(40_000_000, r0.workNs(), 1e-6, "reaches the broadcasts 60 ms into its 100 ms step");
        assertEquals(100_000_000, r1.workNs(), 1e-6);
        assertEquals(2, f.collectives().size());
        CollectiveSummary bc = f.collectives().stream().filter(c -> c.kind() == dlproflint.facts.CollectiveKind.BROADCAST)
                .findFirst().orElseThrow();
        assertTrue(bc.host());
        assertEquals("broadcast (host)", bc.label());
        assertEquals((3 * 60_600_000 + 600_000) / 4.0, bc.timeNs(), 1e-6, "in-flight time, not the two works' sum");
        assertEquals(3 * 60_000_000 / 4.0, bc.waitNs(), 1e-6);
        assertTrue(f.job().collectivesSeen());
    }

    @Test
    void kernelsAndHostCallsOfOneKindAreDifferentCollectives() {
        int[] steps = {1};
        List<RankSummary> ranks = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            List<dlproflint.facts.CollectiveCalls> calls = List.of(
                    new dlproflint.facts.CollectiveCalls(1, dlproflint.facts.CollectiveKind.ALL_REDUCE, 4, 10_000_000, -1),
                    new dlproflint.facts.CollectiveCalls(1, dlproflint.facts.CollectiveKind.ALL_REDUCE, true, 1,
                            r == 0 ? 9_000_000 : 1_000_000, r == 0 ? 9_000_000 : 1_000_000, 8));
            ranks.add(new RankSummary("r" + r, "kineto", Ranks.info(r, 2),
                    List.of(new dlproflint.facts.StepActivity(1, 0, 50_000_000, 30_000_000, 11_000_000, 2_000_000, 0, 1_000_000)),
                    calls, List.of(), null, null, List.of()));
        }
        JobFacts f = reduce(ranks);
        assertEquals(List.of("all-reduce", "all-reduce (host)"), f.collectives().stream().map(CollectiveSummary::label).toList());
        assertEquals(8_000_000, f.ranks().get(0).waitNs(), 1e-6, "only the host all-reduce differs");
        assertEquals(1, f.ranks().get(1).lastArrivals());
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
