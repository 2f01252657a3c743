package dlproflint.extract.common;

import dlproflint.facts.CollectiveKind;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Per-step GPU side from GPU activities (by launch) and host-side collectives (by the CPU window that holds them),
 * checked against sums worked out by hand.
 */
class StepGpuSweepTest {
    private static final int AR = CollectiveKind.ALL_REDUCE.ordinal();
    private static final int BC = CollectiveKind.BROADCAST.ordinal();

    /**
     * One 100 ns step of a Gloo rank: two broadcast works at once on the worker threads (10-70 and 12-68), a compute
     * kernel 70-80, an all-reduce work 75-95 the kernel half overlaps. Communication is in flight 10-70 and 75-95
     * (80 ns), of which 75-80 beside compute; the step is active 10-95 (the GPU idle 0-10 and 95-100 only: waiting
     * for a collective is not idle for want of host work), while its GPU work is the kernel alone.
     */
    @Test
    void hostCollectivesAreCommunicationAndTheirOverlapIsCountedOnce() {
        StepGpuSweep sweep = new StepGpuSweep(1);
        sweep.hostCollective(0, 10, 70, BC, 20);
        sweep.hostCollective(0, 12, 68, BC, 20);
        sweep.gpu(0, 0, 70, 80, StepGpuSweep.COMPUTE, false, -1);
        sweep.hostCollective(0, 75, 95, AR, -1);
        sweep.finish();
        assertFalse(sweep.unordered());
        StepGpuSweep.Cell c = sweep.all(0);
        assertEquals(10, c.computeNs());
        assertEquals(80, c.commNs());
        assertEquals(75, c.exposedCommNs());
        assertEquals(85, c.activeNs());
        assertEquals(10, c.busyNs(), "host collectives are no GPU work");
        assertEquals(70, c.first());
        assertEquals(80, c.last(), "nor part of the step's GPU span");
        assertEquals(10, sweep.on(0, 0).busyNs());
        assertEquals(2, c.kindCalls(CollectiveKind.BROADCAST, true));
        assertEquals(116, c.kindTime(CollectiveKind.BROADCAST, true));
        assertEquals(60, c.kindBusy(CollectiveKind.BROADCAST, true), "10-70 and 12-68 overlap");
        assertEquals(40, c.kindBytes(CollectiveKind.BROADCAST, true));
        assertEquals(1, c.kindCalls(CollectiveKind.ALL_REDUCE, true));
        assertEquals(20, c.kindBusy(CollectiveKind.ALL_REDUCE, true));
        assertEquals(-1, c.kindBytes(CollectiveKind.ALL_REDUCE, true));
        assertEquals(0, c.kindCalls(CollectiveKind.BROADCAST, false));
    }

    /**
     * Kernels and host calls of the same kind are separate collectives; a kind's calls that run one after another are
     * busy as long as their summed time. An all-reduce kernel launched in step 0 that runs 105-115 is step 0's (by
     * launch); a host collective that starts at 110 is step 1's (the CPU window that holds it), even where it overlaps
     * one of step 0's (90-120): calls merge only within their own step.
     */
    @Test
    void kernelsAndHostCallsOfOneKindAreKeptApartAndEachStepKeepsItsOwn() {
        Iterations its = Iterations.ofWindows(new long[] {0, 100}, new long[] {100, 200});
        StepGpuSweep sweep = new StepGpuSweep(2);
        sweep.gpu(0, 0, 10, 20, AR, false, 64);
        sweep.hostCollective(its.holding(15), 15, 30, AR, -1);
        sweep.gpu(0, 0, 40, 50, AR, false, 64);
        sweep.hostCollective(its.holding(90), 90, 120, AR, -1);
        sweep.gpu(0, 0, 105, 115, AR, false, 64);
        sweep.hostCollective(its.holding(110), 110, 130, AR, -1);
        sweep.finish();
        StepGpuSweep.Cell s0 = sweep.all(0);
        assertEquals(3, s0.kindCalls(CollectiveKind.ALL_REDUCE, false));
        assertEquals(30, s0.kindTime(CollectiveKind.ALL_REDUCE, false));
        assertEquals(30, s0.kindBusy(CollectiveKind.ALL_REDUCE, false));
        assertEquals(192, s0.kindBytes(CollectiveKind.ALL_REDUCE, false));
        assertEquals(2, s0.kindCalls(CollectiveKind.ALL_REDUCE, true));
        assertEquals(45, s0.kindBusy(CollectiveKind.ALL_REDUCE, true), "15-30 and 90-120");
        assertEquals(60, s0.commNs(), "10-30, 40-50, 90-120: 60 ns");
        StepGpuSweep.Cell s1 = sweep.all(1);
        assertEquals(0, s1.kindCalls(CollectiveKind.ALL_REDUCE, false));
        assertEquals(1, s1.kindCalls(CollectiveKind.ALL_REDUCE, true));
        assertEquals(20, s1.kindBusy(CollectiveKind.ALL_REDUCE, true));
        assertEquals(20, s1.commNs());
        assertFalse(s1.ran(), "step 1 launched no GPU work");
    }

    /** A host collective outside every step's CPU window (before the first, from the last one's stop) is no step's. */
    @Test
    void hostCollectivesOutsideTheStepsAreLeftOut() {
        Iterations its = Iterations.ofWindows(new long[] {100, 200}, new long[] {190, 300});
        assertEquals(-1, its.holding(50));
        assertEquals(0, its.holding(195), "between two steps' ranges: the earlier one's");
        assertEquals(1, its.holding(299));
        assertEquals(-1, its.holding(300));
        StepGpuSweep sweep = new StepGpuSweep(2);
        sweep.hostCollective(its.holding(50), 50, 150, AR, -1);
        sweep.hostCollective(its.holding(300), 300, 320, AR, -1);
        sweep.finish();
        assertEquals(0, sweep.all(0).commNs());
        assertEquals(0, sweep.all(1).kindCalls(CollectiveKind.ALL_REDUCE, true));
        assertEquals(0, sweep.unattributed(), "no GPU activity to warn about");
    }

    /**
     * A device's own cells hold what the all-devices cells of a sweep of its activities alone hold, whether a second
     * device appears at once, late (after thousands of activities of the first) or never, and whether a host-side
     * collective comes first, in the middle or not at all (the sweep keeps one cell per step while a single device has
     * run anything, and makes the device's cells when that changes).
     */
    @Test
    void aDevicesCellsAreTheSweepOfItsWorkAloneWheneverAnotherDeviceAppears() {
        java.util.Random r = new java.util.Random(7);
        int steps = 40;
        for (int secondAt : new int[] {0, 3_000, 7_999, -1}) {
            for (int collectiveAt : new int[] {-1, 0, 4_000}) {
                StepGpuSweep both = new StepGpuSweep(steps);
                StepGpuSweep first = new StepGpuSweep(steps);
                StepGpuSweep second = new StepGpuSweep(steps);
                long t = 0;
                for (int i = 0; i < 8_000; i++) {
                    if (i == collectiveAt) both.hostCollective(i * steps / 8_000, t, t + 50, AR, 64);
                    t += r.nextInt(40);
                    int step = i * steps / 8_000;
                    int device = secondAt >= 0 && i >= secondAt && r.nextBoolean() ? 1 : 0;
                    long end = t + r.nextInt(120);
                    int cls = r.nextInt(10) == 0 ? StepGpuSweep.MEMORY : r.nextInt(15) == 0 ? AR : StepGpuSweep.COMPUTE;
                    boolean tc = r.nextBoolean();
                    both.gpu(step, device, t, end, cls, tc, 128);
                    (device == 0 ? first : second).gpu(step, device, t, end, cls, tc, 128);
                }
                both.finish();
                first.finish();
                second.finish();
                for (int step = 0; step < steps; step++) {
                    String at = "second device at " + secondAt + ", collective at " + collectiveAt + ", step " + step;
                    assertEquals(gpuWork(first.all(step)), gpuWork(both.on(step, 0)), at);
                    assertEquals(gpuWork(second.all(step)), gpuWork(both.on(step, 1)), at);
                }
            }
        }
    }

    private static java.util.List<Long> gpuWork(StepGpuSweep.Cell c) {
        return java.util.List.of(c.first(), c.last(), c.kernels(), c.kernelNs(), c.tcNs(), c.memoryOps(), c.memoryNs(),
                c.busyNs(), c.tcBusyNs(), c.kernelBusyNs(), c.computeNs(), c.commNs(), c.exposedCommNs(), c.activeNs());
    }
}
