package dlproflint.job;

import dlproflint.facts.JobInput;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JobRosterTest {
    private static final int[] STEPS = {4, 5};
    private static final long[] COMM = {10_000_000, 10_000_000};

    @Test
    void ranksFromTheProfilesThenFileNamesThenPosition() {
        JobRoster r = JobRoster.of(List.of(
                JobRoster.Read.ok("a/rank-2.json", Ranks.rank("a/rank-2.json", Ranks.info(0, 4), STEPS, COMM)),
                JobRoster.Read.ok("a/rank-3.json", Ranks.rank("a/rank-3.json", null, STEPS, COMM)),
                JobRoster.Read.ok("a/trace.json", Ranks.rank("a/trace.json", null, STEPS, COMM))));
        assertEquals(List.of(0, 3, 1), r.inputs().stream().map(JobInput::rank).toList(), "distributedInfo wins over the name");
        assertEquals(List.of("distributedInfo", "file name", "position"), r.inputs().stream().map(JobInput::identifiedBy).toList());
        assertEquals(4, r.worldSize());
        assertEquals("distributedInfo, file name, position", r.rankSource());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("a/trace.json") && n.contains("taken as rank 1 by its position")), r.notes().toString());
    }

    @Test
    void profilesOfAnotherJobDuplicatesAndUnreadableOnesAreLeftOutAndNamed() {
        JobRoster r = JobRoster.of(List.of(
                JobRoster.Read.ok("r0.json", Ranks.rank("r0.json", Ranks.info(0, 4), STEPS, COMM)),
                JobRoster.Read.ok("r1.json", Ranks.rank("r1.json", Ranks.info(1, 4), STEPS, COMM)),
                JobRoster.Read.ok("r1-again.json", Ranks.rank("r1-again.json", Ranks.info(1, 4), STEPS, COMM)),
                JobRoster.Read.ok("other.json", Ranks.rank("other.json", Ranks.info(2, 16), STEPS, COMM)),
                JobRoster.Read.failed("r3.json", "invalid JSON at line 1, column 2")));
        assertEquals(List.of("used", "used", "duplicate", "other-job", "unreadable"),
                r.inputs().stream().map(JobInput::status).toList());
        assertEquals(2, r.ranks().size());
        String notes = String.join("\n", r.notes());
        assertTrue(notes.contains("r1-again.json: left out as a duplicate: rank 1 (by distributedInfo) is already covered by r1.json"), notes);
        assertTrue(notes.contains("other.json: left out as another job's profile: world size 16, but 3 of 4 readable profiles say 4"), notes);
        assertTrue(notes.contains("r3.json: unreadable (invalid JSON at line 1, column 2)"), notes);
    }

    @Test
    void aRankOutsideTheWorldIsNotTheJobs() {
        JobRoster r = JobRoster.of(List.of(
                JobRoster.Read.ok("r0.json", Ranks.rank("r0.json", Ranks.info(0, 2), STEPS, COMM)),
                JobRoster.Read.ok("rank-7.json", Ranks.rank("rank-7.json", null, STEPS, COMM))));
        assertEquals("other-job", r.inputs().get(1).status());
        assertTrue(r.inputs().get(1).note().contains("rank 7 (by file name) is outside the job's world size 2"));
    }

    @Test
    void fileNamesCarryRanksInTheCommonSpellings() {
        assertEquals(34, JobRoster.rankFromName("cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"));
        assertEquals(1, JobRoster.rankFromName("trace_filter/sampled_rank-1.json.gz"));
        assertEquals(1, JobRoster.rankFromName("trace_file_list/inference_rank_1.json.gz"));
        assertEquals(0, JobRoster.rankFromName("negative_queue_length_values_check/rank0.json.gz"));
        assertEquals(3, JobRoster.rankFromName("job/worker3.1700000000.pt.trace.json"));
        assertEquals(5, JobRoster.rankFromName("job/rank5/profile.sqlite"));
        assertEquals(-1, JobRoster.rankFromName("nccl_parser_config/nccl_data.json.gz"));
        assertEquals(-1, JobRoster.rankFromName("frank12.json"), "a word ending in 'rank' is not a rank");
    }
}
