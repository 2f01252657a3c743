package dlproflint.extract.common;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link HostReplay} on hand-made loops whose answer follows from how a stream queue works: a sync point costs the
 * backlog it drains, nothing where the GPU had nothing queued; a pageable copy costs its wait and its slow transfer;
 * the profiler's per-event cost comes off the host's clock only.
 */
class HostReplayTest {
    private static final long MS = 1_000_000;

    /** {@code steps} steps of {@code hostMs} host time each, one kernel of {@code gpuMs} launched at each step's start. */
    private static HostReplay.Launches oneKernelPerStep(int steps, double hostMs, double gpuMs) {
        return oneKernelPerStep(steps, hostMs, gpuMs, 0);
    }

    /** The same with the launch {@code launchAtMs} into each step (host work before it: the forward's Python). */
    private static HostReplay.Launches oneKernelPerStep(int steps, double hostMs, double gpuMs, double launchAtMs) {
        long[] call = new long[steps];
        long[] dur = new long[steps];
        int[] stream = new int[steps];
        for (int i = 0; i < steps; i++) {
            call[i] = (long) ((i * hostMs + launchAtMs) * MS);
            dur[i] = (long) (gpuMs * MS);
        }
        return new HostReplay.Launches(call, dur, stream);
    }

    private static HostReplay.Blocking syncsAtStepEnds(int steps, double hostMs, double blockedMs) {
        long[] s = new long[steps];
        long[] e = new long[steps];
        for (int i = 0; i < steps; i++) {
            e[i] = (long) ((i + 1) * hostMs * MS) - 1;
            s[i] = e[i] - (long) (blockedMs * MS);
        }
        return new HostReplay.Blocking(s, e, new boolean[steps], new long[0], new long[0], new int[0], new long[0], new long[0]);
    }

    @Test
    void aSyncInAGpuBoundLoopCostsTheRefillAfterIt() {
        // host 4 ms per step: 2 ms before its launch, then the launch, then a sync at the end (1 ms blocked as
        // profiled); GPU 10 ms per step. Without the sync the GPU runs back to back (10 ms steps); with it, the GPU
        // waits after each sync for the 2 ms the host needs before the next launch: 12 ms steps
        int steps = 8;
        HostReplay.Result r = HostReplay.replay(0, (long) (steps * 4.0 * MS), steps, new long[0], 0,
                oneKernelPerStep(steps, 4, 10, 2), syncsAtStepEnds(steps, 4, 1));
        assertTrue(r.stepNs() > 11.5 * MS && r.stepNs() < 12.5 * MS, "step " + r.stepNs());
        assertTrue(r.syncSavingNs() > 1.5 * MS && r.syncSavingNs() < 2.5 * MS, "saving " + r.syncSavingNs());
        // the same loop without the sync points: nothing to save
        HostReplay.Result none = HostReplay.replay(0, (long) (steps * 4.0 * MS), steps, new long[0], 0,
                oneKernelPerStep(steps, 4, 10, 2), HostReplay.Blocking.none());
        assertEquals(0, none.syncSavingNs(), 1);
        assertTrue(none.stepNs() > 9.9 * MS && none.stepNs() < 10.4 * MS, "step " + none.stepNs());
    }

    @Test
    void aSyncInAHostBoundLoopWithAnEmptyQueueCostsNothing() {
        // host 10 ms per step, GPU 1 ms: the kernel is done long before the sync
        int steps = 8;
        HostReplay.Result r = HostReplay.replay(0, (long) (steps * 10.0 * MS), steps, new long[0], 0,
                oneKernelPerStep(steps, 10, 1), syncsAtStepEnds(steps, 10, 0.01));
        assertEquals(0, r.syncSavingNs(), 0.02 * MS);
    }

    @Test
    void theProfilersCostComesOffTheHostClockOnly() {
        // a host-bound loop of 10 ms steps, 2,000 recorded events per step at 2.5 µs each: 5 ms of profiler per step
        int steps = 4;
        long[] events = new long[steps * 2000];
        for (int i = 0; i < events.length; i++) events[i] = (long) (i * 10.0 * MS / 2000);
        HostReplay.Result r = HostReplay.replay(0, (long) (steps * 10.0 * MS), steps, events, 2_500,
                oneKernelPerStep(steps, 10, 1), HostReplay.Blocking.none());
        assertEquals(5 * MS, r.overheadNs(), 0.01 * MS);
        assertEquals(5 * MS, r.stepNs(), 0.1 * MS);
        // a GPU-bound loop keeps its GPU time however much the host's clock shrinks
        HostReplay.Result gpu = HostReplay.replay(0, (long) (steps * 10.0 * MS), steps, events, 2_500,
                oneKernelPerStep(steps, 10, 12), HostReplay.Blocking.none());
        assertEquals(12 * MS, gpu.stepNs(), 0.1 * MS);
    }

    @Test
    void aPageableCopyCostsItsWaitAndItsSlowTransfer() {
        // each step: a 4 ms pageable copy (0.5 ms pinned) launched at the start and waited for, then a 3 ms kernel;
        // host 6 ms per step of which 4 ms blocked in the copy call
        int steps = 6;
        long[] cs = new long[steps];
        long[] ce = new long[steps];
        int[] st = new int[steps];
        long[] gpu = new long[steps];
        long[] pin = new long[steps];
        long[] call = new long[steps];
        long[] dur = new long[steps];
        int[] stream = new int[steps];
        for (int i = 0; i < steps; i++) {
            cs[i] = i * 6 * MS;
            ce[i] = cs[i] + 4 * MS;
            gpu[i] = 4 * MS;
            pin[i] = MS / 2;
            call[i] = ce[i] + MS / 10;
            dur[i] = 3 * MS;
        }
        HostReplay.Result r = HostReplay.replay(0, steps * 6 * MS, steps, new long[0], 0,
                new HostReplay.Launches(call, dur, stream), new HostReplay.Blocking(new long[0], new long[0], new boolean[0], cs, ce, st, gpu, pin));
        // as recorded: host 2 ms + wait for the copy behind the previous kernel; pinned: GPU-bound at 3.5 ms per step
        assertTrue(r.stepNs() > 6 * MS, "step " + r.stepNs());
        assertEquals(r.stepNs() - 3.5 * MS, r.copySavingNs(), 0.3 * MS);
    }

    @Test
    void theBatchReleaseBeforeAPageableCopyIsSavedOnlyByPinning() {
        // host-bound: each 10 ms step hands a batch over at 0, the loop's thread is quiet for 3 ms (releasing the
        // previous batch), then a 2 ms pageable copy call and a 1 ms kernel
        int steps = 4;
        long[] cs = new long[steps];
        long[] ce = new long[steps];
        long[] gpu = new long[steps];
        long[] pin = new long[steps];
        long[] release = new long[steps];
        long[] call = new long[steps];
        long[] dur = new long[steps];
        for (int i = 0; i < steps; i++) {
            cs[i] = i * 10 * MS + 3 * MS;
            ce[i] = cs[i] + 2 * MS;
            gpu[i] = 2 * MS;
            pin[i] = MS / 4;
            release[i] = HostReplay.releaseBefore(i * 10 * MS, cs[i], cs[i], ce[i] - cs[i]);
            call[i] = ce[i] + MS / 10;
            dur[i] = MS;
        }
        HostReplay.Blocking withRelease = new HostReplay.Blocking(new long[0], new long[0], new boolean[0], cs, ce,
                new int[steps], gpu, pin, release);
        HostReplay.Blocking without = new HostReplay.Blocking(new long[0], new long[0], new boolean[0], cs, ce,
                new int[steps], gpu, pin);
        HostReplay.Launches launches = new HostReplay.Launches(call, dur, new int[steps]);
        HostReplay.Result r = HostReplay.replay(0, steps * 10 * MS, steps, new long[0], 0, launches, withRelease);
        HostReplay.Result plain = HostReplay.replay(0, steps * 10 * MS, steps, new long[0], 0, launches, without);
        // the recorded step is the same either way: the release is in it
        assertEquals(plain.stepNs(), r.stepNs(), 1);
        // the 2 ms release before each copy, capped at the copy call's 2 ms, adds 2 ms per step to what pinning saves
        assertEquals(2 * MS, r.releaseNs(), 1);
        assertEquals(plain.copySavingNs() + 2 * MS, r.copySavingNs(), 0.05 * MS);
        assertEquals(0, plain.releaseNs(), 0);
    }

    @Test
    void onlyQuietTimeEndingAtTheCopyAndNoMoreThanTheCopyCallCountsAsTheBatchRelease() {
        assertEquals(3 * MS, HostReplay.releaseBefore(0, 3 * MS, 4 * MS, 5 * MS));
        assertEquals(2 * MS, HostReplay.releaseBefore(0, 3 * MS, 4 * MS, 2 * MS), "capped by the copy call's host time");
        assertEquals(0, HostReplay.releaseBefore(0, 5 * MS, 4 * MS, 5 * MS), "the thread's next event comes after the copy");
        assertEquals(0, HostReplay.releaseBefore(0, Long.MAX_VALUE, 4 * MS, 5 * MS), "no later event recorded");
    }

    /** A data-loading call from {@code 0} to {@code loadMs} at the start of each of {@code steps} steps of {@code hostMs}. */
    private static HostReplay.Loading loadsAtStepStarts(int steps, double hostMs, double loadMs) {
        long[] s = new long[steps];
        long[] e = new long[steps];
        for (int i = 0; i < steps; i++) {
            s[i] = (long) (i * hostMs * MS);
            e[i] = s[i] + (long) (loadMs * MS);
        }
        return new HostReplay.Loading(s, e);
    }

    @Test
    void aLoaderThatKeepsUpSavesTheLoadingUntilTheGpuSetsThePace() {
        // host 10 ms per step: 6 ms loading the batch on the loop's thread, then one launch; GPU 3 ms per step.
        // A loader that keeps up leaves 4 ms of host per step, still more than the GPU's 3: 6 ms saved
        int steps = 8;
        HostReplay.Result r = HostReplay.replay(0, (long) (steps * 10.0 * MS), steps, new long[0], 0,
                oneKernelPerStep(steps, 10, 3, 6), HostReplay.Blocking.none(), loadsAtStepStarts(steps, 10, 6));
        assertEquals(6 * MS, r.loadSavingNs(), 0.1 * MS);
        assertEquals(10 * MS, r.stepNs(), 0.1 * MS);
        // with 8 ms of GPU per step the loop becomes GPU-bound at 8 ms: the GPU's 64 ms against 84 (the last kernel
        // ends 4 ms after the host's 80), 2.5 ms per step
        HostReplay.Result gpu = HostReplay.replay(0, (long) (steps * 10.0 * MS), steps, new long[0], 0,
                oneKernelPerStep(steps, 10, 8, 6), HostReplay.Blocking.none(), loadsAtStepStarts(steps, 10, 6));
        assertEquals(2.5 * MS, gpu.loadSavingNs(), 0.1 * MS);
        // without loading calls nothing is saved
        HostReplay.Result none = HostReplay.replay(0, (long) (steps * 10.0 * MS), steps, new long[0], 0,
                oneKernelPerStep(steps, 10, 3, 6), HostReplay.Blocking.none());
        assertEquals(0, none.loadSavingNs());
    }

    @Test
    void theLoadingsRecordedEventsAreNotTakenOffTwice() {
        // 1,000 events of 2 µs profiler cost inside each 6 ms load: the clock already leaves their 2 ms out, so a loader
        // that keeps up saves the other 4 ms of each load
        int steps = 4;
        long[] events = new long[steps * 1000];
        for (int i = 0; i < events.length; i++) events[i] = (i / 1000) * 10 * MS + (i % 1000) * 6_000L;
        HostReplay.Result r = HostReplay.replay(0, (long) (steps * 10.0 * MS), steps, events, 2_000,
                oneKernelPerStep(steps, 10, 1, 6), HostReplay.Blocking.none(), loadsAtStepStarts(steps, 10, 6));
        assertEquals(8 * MS, r.stepNs(), 0.1 * MS);
        assertEquals(4 * MS, r.loadSavingNs(), 0.1 * MS);
    }
}
