package dlproflint.extract.common;

import dlproflint.facts.CollectiveCalls;
import dlproflint.facts.CollectiveKind;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.StepActivity;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Per-step activity from GPU operations and host-side collectives, checked against sums worked out by hand. */
class StepSweepTest {
    private static final int AR = CollectiveKind.ALL_REDUCE.ordinal();
    private static final int BC = CollectiveKind.BROADCAST.ordinal();

    private static ProfileFacts finish(StepSweep sweep) {
        ProfileFacts.Builder b = ProfileFacts.builder().profile(new dlproflint.facts.ProfileInfo("t.json", "kineto", null, null, 0, 200));
        sweep.finish(b);
        return b.build();
    }

    /**
     * One 100 ns step of a Gloo rank: two broadcast works at once on the worker threads (10-70 and 12-68), a compute
     * kernel 70-80, an all-reduce work 75-95 the kernel half overlaps. Communication is in flight 10-70 and 75-95
     * (80 ns), of which 75-80 beside compute; the GPU is idle 0-10 and 95-100 only: waiting for a collective is not
     * idle for want of host work.
     */
    @Test
    void hostCollectivesAreCommunicationAndTheirOverlapIsCountedOnce() {
        StepSweep sweep = new StepSweep(new int[] {7}, new long[] {0}, new long[] {100});
        sweep.hostCollective(10, 70, BC, 20);
        sweep.hostCollective(12, 68, BC, 20);
        sweep.gpu(70, 80, StepSweep.COMPUTE, -1);
        sweep.hostCollective(75, 95, AR, -1);
        assertFalse(sweep.unordered());
        ProfileFacts f = finish(sweep);
        StepActivity s = f.stepActivity().get(0);
        assertEquals(10, s.computeNs());
        assertEquals(80, s.commNs());
        assertEquals(75, s.exposedCommNs());
        assertEquals(15, s.idleNs());
        List<CollectiveCalls> calls = f.collectiveCalls();
        assertEquals(List.of(new CollectiveCalls(7, CollectiveKind.BROADCAST, true, 2, 116, 60, 40),
                new CollectiveCalls(7, CollectiveKind.ALL_REDUCE, true, 1, 20, 20, -1)), calls.stream()
                .sorted((a, b) -> Integer.compare(b.kind() == CollectiveKind.BROADCAST ? 1 : 0, a.kind() == CollectiveKind.BROADCAST ? 1 : 0))
                .toList());
    }

    /**
     * Kernels and host calls of the same kind are separate collectives; a kind's calls that run one after another
     * are busy as long as their summed time; calls merge only with calls that start in the same step.
     */
    @Test
    void kernelsAndHostCallsOfOneKindAreKeptApart() {
        StepSweep sweep = new StepSweep(new int[] {1, 2}, new long[] {0, 100}, new long[] {100, 200});
        sweep.gpu(10, 20, AR, 64);
        sweep.hostCollective(15, 30, AR, -1);
        sweep.gpu(40, 50, AR, 64);
        sweep.hostCollective(90, 120, AR, -1);
        sweep.hostCollective(110, 130, AR, -1);
        ProfileFacts f = finish(sweep);
        assertTrue(f.collectiveCalls().contains(new CollectiveCalls(1, CollectiveKind.ALL_REDUCE, false, 2, 20, 20, 128)));
        assertTrue(f.collectiveCalls().contains(new CollectiveCalls(1, CollectiveKind.ALL_REDUCE, true, 2, 45, 45, -1)),
                "15-30 and 90-120, both started in step 1: " + f.collectiveCalls());
        assertTrue(f.collectiveCalls().contains(new CollectiveCalls(2, CollectiveKind.ALL_REDUCE, true, 1, 20, 20, -1)),
                "110-130 started in step 2 and is its own: " + f.collectiveCalls());
        assertEquals(3, f.collectiveCalls().size());
    }
}
