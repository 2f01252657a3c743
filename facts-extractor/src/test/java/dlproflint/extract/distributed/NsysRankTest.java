package dlproflint.extract.distributed;

import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.CollectiveCalls;
import dlproflint.facts.CollectiveKind;
import dlproflint.facts.DistributedInfo;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.StepActivity;
import dlproflint.testing.Corpus;
import dlproflint.testing.SqliteVariant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An nsys export as one rank of a job: a variant of a real export (DLProf's w_Relu capture) whose profiled
 * process's environment says it is rank 3 of 8 under torchrun (nsys 2023.3+'s {@code META_DATA_CAPTURE}), and one
 * of whose kernels is an NCCL all-reduce. The original, without an environment, is no rank of anything.
 */
class NsysRankTest {
    private static final String EXPORT = "mohanadodema-dlprof/w_Relu/nsys_profile.sqlite";

    @TempDir
    Path dir;

    @Test
    void theProcessEnvironmentSaysTheRankAndNcclKernelsAreCommunication() throws Exception {
        Path p = SqliteVariant.of(Corpus.file(EXPORT), dir, "rank3",
                "CREATE TABLE META_DATA_CAPTURE (name TEXT, value TEXT)",
                "INSERT INTO META_DATA_CAPTURE VALUES ('PROCESS_0:ENVIRONMENT_VARIABLE', 'RANK=\"3\"'),"
                        + " ('PROCESS_0:ENVIRONMENT_VARIABLE', 'WORLD_SIZE=\"8\"'),"
                        + " ('PROCESS_0:ENVIRONMENT_VARIABLE', 'TORCHELASTIC_RUN_ID=\"run-42\"'),"
                        + " ('PROCESS_0:ENVIRONMENT_VARIABLE', 'PATH=\"/usr/bin\"')",
                "UPDATE StringIds SET value = 'ncclKernel_AllReduce_RING_LL_Sum_float' WHERE id = 80");
        ProfileFacts f = ProfileReaders.discover().read(p, ReadOptions.DEFAULT);
        DistributedInfo d = f.rank();
        assertEquals(3, d.rank());
        assertEquals(8, d.worldSize());
        assertEquals("environment", d.source());
        assertEquals("TORCHELASTIC_RUN_ID=run-42", d.jobId());
        long allReduce = f.collectiveCalls().stream().filter(c -> c.kind() == CollectiveKind.ALL_REDUCE)
                .mapToLong(CollectiveCalls::calls).sum();
        assertTrue(allReduce > 0, "the renamed kernel counts as all-reduce: " + f.collectiveCalls());
        assertEquals(f.iterations().size(), f.stepActivity().size(), "one activity per iteration");
        long comm = f.stepActivity().stream().mapToLong(StepActivity::commNs).sum();
        long compute = f.stepActivity().stream().mapToLong(StepActivity::computeNs).sum();
        assertTrue(comm > 0 && compute > 0, f.stepActivity().toString());
        for (StepActivity s : f.stepActivity()) {
            assertTrue(s.exposedCommNs() <= s.commNs() && s.idleNs() >= 0, s.toString());
        }
    }

    @Test
    void withoutAnEnvironmentAnExportIsNoRank() throws Exception {
        ProfileFacts f = ProfileReaders.discover().read(Corpus.file(EXPORT), ReadOptions.DEFAULT);
        assertNull(f.rank());
        assertTrue(f.collectiveCalls().isEmpty());
    }
}
