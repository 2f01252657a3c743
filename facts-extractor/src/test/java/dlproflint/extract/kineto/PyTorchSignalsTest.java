package dlproflint.extract.kineto;

import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.extract.common.SyncIdle;
import dlproflint.facts.CollectiveStat;
import dlproflint.facts.DistributedSetup;
import dlproflint.facts.HostSyncStat;
import dlproflint.facts.IdleBreakdown;
import dlproflint.facts.InputCopyStat;
import dlproflint.facts.KernelDurations;
import dlproflint.facts.KernelOccupancy;
import dlproflint.facts.LaunchStat;
import dlproflint.facts.MemoryPeak;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.StepKernelSequence;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The facts of the {@code pytorch} pack, each computed from a small trace written here so that every number can
 * be checked by hand (times in µs in the trace, ns in the facts). The corpus numbers are checked against an
 * independent implementation in {@code rule-tests} (PyTorchPackCorpusTest).
 */
class PyTorchSignalsTest {
    @TempDir
    Path dir;

    /** A trace under construction: events in microseconds, a correlation id per launch. */
    private static final class Trace {
        final List<String> events = new ArrayList<>();
        String extraTop = "";
        int correlation = 100;

        Trace event(String cat, String name, double ts, double dur, String tid, String args) {
            events.add(String.format(Locale.ROOT, "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":1,\"tid\":%s,\"ts\":%s,\"dur\":%s,\"args\":{%s}}",
                    cat, name, tid, num(ts), num(dur), args));
            return this;
        }

        Trace op(String name, double ts, double dur) {
            return event("cpu_op", name, ts, dur, "10", "");
        }

        Trace annotation(String name, double ts, double dur) {
            return event("user_annotation", name, ts, dur, "10", "");
        }

        /** A launch call at {@code callTs} and the kernel it launched on {@code stream}. */
        Trace kernel(String name, double callTs, double callDur, double ts, double dur, int stream, String extraArgs) {
            int c = correlation++;
            event("cuda_runtime", "cudaLaunchKernel", callTs, callDur, "10", "\"correlation\":" + c);
            events.add(String.format(Locale.ROOT, "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"%s\",\"pid\":0,\"tid\":%d,\"ts\":%s,\"dur\":%s,"
                    + "\"args\":{\"device\":0,\"stream\":%d,\"correlation\":%d%s}}", name, stream, num(ts), num(dur), stream, c,
                    extraArgs.isEmpty() ? "" : "," + extraArgs));
            return this;
        }

        Trace kernel(String name, double callTs, double ts, double dur) {
            return kernel(name, callTs, 5, ts, dur, 7, "");
        }

        Trace memcpy(String kind, double callTs, double callDur, double ts, double dur, long bytes) {
            int c = correlation++;
            event("cuda_runtime", "cudaMemcpyAsync", callTs, callDur, "10", "\"correlation\":" + c);
            events.add(String.format(Locale.ROOT, "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy %s\",\"pid\":0,\"tid\":7,\"ts\":%s,\"dur\":%s,"
                    + "\"args\":{\"device\":0,\"stream\":7,\"correlation\":%d,\"bytes\":%d}}", kind, num(ts), num(dur), c, bytes));
            return this;
        }

        Trace memory(double ts, long allocated, long reserved, boolean totals) {
            events.add(String.format(Locale.ROOT, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"cpu_instant_event\",\"name\":\"[memory]\",\"pid\":1,\"tid\":10,\"ts\":%s,"
                    + "\"args\":{\"Device Type\":1,\"Device Id\":0,\"Bytes\":1024%s}}", num(ts),
                    totals ? ",\"Total Allocated\":" + allocated + ",\"Total Reserved\":" + reserved : ""));
            return this;
        }

        private static String num(double v) {
            return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
        }

        String json() {
            return "{\"schemaVersion\":1," + extraTop + "\"traceEvents\":[" + String.join(",\n", events) + "]}";
        }
    }

    private ProfileFacts read(Trace t) throws Exception {
        Path p = dir.resolve("trace-" + System.nanoTime() + ".json");
        Files.writeString(p, t.json());
        return ProfileReaders.discover().read(p, ReadOptions.DEFAULT);
    }

    @Test
    void idleGapsAreHostWaitKernelWaitOrOtherAsInHta() throws Exception {
        Trace t = new Trace()
                .kernel("a", 0, 10, 10)      // runs 10-20
                .kernel("b", 12, 25, 10)     // launched at 12 (before a ended): queued; gap 20-25 = 5 µs kernel wait
                .kernel("c", 40, 50, 10)     // launched at 40, after b ended at 35: host wait 35-50 = 15 µs (< 50: a launch gap)
                .kernel("d", 55, 200, 10)    // launched before c ended, gap 60-200 = 140 µs: other
                .kernel("e", 300, 400, 10);  // launched at 300 after d ended at 210: host wait 190 µs (not a launch gap)
        ProfileFacts f = read(t);
        IdleBreakdown i = f.idleBreakdowns().get(0);
        assertEquals(0, i.deviceId());
        assertEquals(7, i.stream());
        assertEquals(400_000, i.spanNs(), "first start 10, last end 410");
        assertEquals(5_000, i.kernelWaitNs());
        assertEquals(15_000 + 190_000, i.hostWaitNs());
        assertEquals(140_000, i.otherNs());
        assertEquals(4, i.gaps());
        assertEquals(2, i.hostWaitGaps());
        assertEquals(15_000, i.launchHostWaitNs());
        assertEquals(50_000, i.busyNs());
    }

    @Test
    void theBusiestStreamOfEachDeviceIsBrokenDown() throws Exception {
        Trace t = new Trace()
                .kernel("nccl_like", 0, 5, 10, 100, 20, "")
                .kernel("small", 1, 5, 10, 5, 7, "")
                .kernel("small", 20, 5, 30, 5, 7, "");
        IdleBreakdown i = read(t).idleBreakdowns().get(0);
        assertEquals(20, i.stream(), "100 µs of kernels on stream 20 against 10 on stream 7");
    }

    @Test
    void kernelDurationsKeepEachLaunchAndTheGapAfterIt() throws Exception {
        Trace t = new Trace()
                .kernel("tiny", 0, 10, 2)      // 2 µs, next op at 20: gap 8 µs
                .kernel("tiny", 1, 20, 4.5)    // 4.5 µs, next at 100: gap 75.5 µs, counted up to 30
                .kernel("big", 2, 100, 500);   // 500 µs, last: no gap
        KernelDurations d = read(t).kernelDurations();
        assertEquals(3, d.kernels());
        assertEquals(506_500, d.totalNs());
        assertEquals(2, d.shortKernels(10));
        assertEquals(6_500, d.shortNs(10));
        assertEquals(8_000 + 30_000, d.shortGapNs(10));
        assertEquals(1, d.shortKernels(3), "only the 2 µs kernel is under 3 µs");
        assertEquals(2, d.shortKernels(12), "12 µs rounds down to the 10 µs bound");
    }

    @Test
    void launchesFindTheQueueEmptyOrFull() throws Exception {
        Trace t = new Trace()
                .kernel("k", 0, 4, 10, 100, 7, "")   // queue empty at 0
                .kernel("k", 5, 4, 110, 1, 7, "")    // at 5: k1 launched at 0 started at 10 > 5 -> 1 queued
                .kernel("k", 6, 30, 200, 1, 7, "");  // at 6: 2 launched, none started -> 2 queued; call 30 µs > kernel 1 µs
        LaunchStat l = read(t).launches();
        assertEquals(3, l.launches());
        assertEquals(1, l.emptyQueueLaunches());
        assertEquals(1.0, l.meanQueueLength(), 1e-9, "(0 + 1 + 2) / 3");
        assertEquals(2, l.shorterThanLaunch(), "1 µs kernels after a 4 µs and a 30 µs call");
        assertEquals(101_000, l.medianDelayNs(), 101_000 * 0.016, "delays 6, 101, 164 µs (to the histogram bucket, under 1.6%)");
        assertEquals(2, l.delayOutliers(), "101 and 164 µs > 100 µs");
    }

    @Test
    void nestedSyncCallsAreOneSyncPointAndTheGpuIdleTheyCauseIsMeasured() throws Exception {
        Trace t = new Trace()
                .annotation("ProfilerStep#1", 0, 1000)
                .kernel("work", 0, 10, 300)                       // GPU busy 10-310
                .op("aten::item", 100, 250)                       // host waits 100-350
                .op("aten::_local_scalar_dense", 100, 250)        // same start and end at µs resolution
                .event("cuda_runtime", "cudaStreamSynchronize", 120, 225, "10", "")
                .kernel("next", 360, 400, 50)                     // next GPU work at 400
                .annotation("ProfilerStep#2", 1000, 1000)
                .op("aten::item", 1100, 0)                        // a zero-length item and its zero-length children
                .op("aten::_local_scalar_dense", 1100, 0)
                .event("cuda_runtime", "cudaStreamSynchronize", 1100, 0, "10", "")
                .op("aten::item", 1150, 0)                        // a second item right after it
                .event("cuda_runtime", "cudaStreamSynchronize", 1150, 0, "10", "");
        HostSyncStat h = read(t).hostSyncs();
        assertNotNull(h);
        assertEquals(3, h.syncPoints(), "item(_local_scalar_dense(sync)), then two items in step 2");
        assertEquals(2, h.steps());
        assertEquals(2, h.stepsWithSync());
        assertEquals(250_000, h.blockedNs());
        // 100-400 with the GPU busy until 310: 90 µs; the step-2 items find the GPU idle until nothing runs again: 0
        assertEquals(90_000, h.gpuIdleNs());
        assertEquals(List.of("aten::item: 3"), h.calls());
    }

    @Test
    void anItemOfACpuTensorWaitsForNothing() throws Exception {
        // a data loader's random augmentation reads CPU tensors with .item(): no CUDA call in it, no sync point (the
        // H200 MobileNet with num_workers=0 makes about 980 per step); a GPU tensor's item() syncs inside
        Trace cpu = new Trace()
                .annotation("ProfilerStep#1", 0, 1000)
                .kernel("work", 0, 10, 300)
                .op("aten::item", 100, 3)
                .op("aten::_local_scalar_dense", 100, 2)
                .annotation("ProfilerStep#2", 1000, 1000)
                .op("aten::item", 1100, 3);
        assertNull(read(cpu).hostSyncs(), "items without a synchronising CUDA call are not sync points");
        Trace gpu = new Trace()
                .annotation("ProfilerStep#1", 0, 1000)
                .kernel("work", 0, 10, 300)
                .op("aten::item", 100, 3)
                .op("aten::item", 400, 50)
                .event("cuda_runtime", "cudaStreamSynchronize", 405, 40, "10", "")
                .annotation("ProfilerStep#2", 1000, 1000)
                .op("aten::item", 1100, 30)                           // its copy to the host, no sync recorded
                .memcpy("DtoH (Device -> Pageable)", 1105, 20, 1110, 2, 4);
        HostSyncStat h = read(gpu).hostSyncs();
        assertEquals(2, h.syncPoints(), "the item with cudaStreamSynchronize inside, the one with its copy inside");
        assertEquals(80_000, h.blockedNs());
        // a capture of the host alone (no CUDA runtime calls at all) cannot tell: every item counts, as before
        assertEquals(2, read(new Trace().op("aten::add", 0, 10).op("aten::item", 20, 5).op("aten::item", 40, 5))
                .hostSyncs().syncPoints());
    }

    @Test
    void batchCopiesAreTheHostToDeviceCopiesBetweenTheDataLoaderAndTheModel() throws Exception {
        Trace t = new Trace()
                .annotation("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 0, 100)
                .memcpy("HtoD (Pageable -> Device)", 110, 2000, 120, 1900, 19_267_584)   // the batch
                .memcpy("HtoD (Pageable -> Device)", 2120, 12, 2125, 1, 256)              // the labels
                .kernel("conv", 2200, 2210, 500)                                          // the model starts
                .memcpy("HtoD (Pageable -> Device)", 2800, 10, 2810, 1, 4);               // later: not a batch copy
        InputCopyStat c = read(t).inputCopies();
        assertEquals(2, c.copies());
        assertEquals(2, c.pageableCopies());
        assertEquals(19_267_840, c.pageableBytes());
        assertEquals(1_901_000, c.pageableGpuNs());
        assertEquals(2_012_000, c.pageableHostNs());

        Trace pinned = new Trace()
                .annotation("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", 0, 100)
                .memcpy("HtoD (Pinned -> Device)", 110, 20, 120, 900, 19_267_584)
                .kernel("conv", 2200, 2210, 500);
        InputCopyStat p = read(pinned).inputCopies();
        assertEquals(1, p.copies());
        assertEquals(0, p.pageableCopies());

        Trace noLoader = new Trace().memcpy("HtoD (Pageable -> Device)", 110, 20, 120, 900, 1000).kernel("conv", 2200, 2210, 500);
        assertNull(read(noLoader).inputCopies(), "without DataLoader calls there are no batch copies to judge");
    }

    @Test
    void exposedCommunicationIsCollectiveTimeWithNothingElseOnTheGpu() throws Exception {
        Trace t = new Trace()
                .annotation("ProfilerStep#1", 0, 1000)
                .kernel("ncclKernel_AllReduce_RING_LL_Sum_float", 0, 5, 100, 200, 20, "")   // comm 100-300
                .kernel("gemm", 1, 5, 50, 100, 7, "");                                      // compute 50-150
        CollectiveStat c = read(t).collectives();
        assertEquals(200_000, c.busyNs());
        assertEquals(150_000, c.exposedNs(), "150-300");
        assertEquals(1_000_000, c.windowNs());
        assertEquals(15.0, c.exposedPct(), 1e-9);
        assertEquals(25.0, c.overlapPct(), 1e-9);
    }

    @Test
    void occupancyIsWeightedByKernelTimeAndLeavesCollectivesOut() throws Exception {
        Trace t = new Trace()
                .kernel("elementwise", 0, 5, 10, 300, 7, "\"est. achieved occupancy %\":100,\"blocks per SM\":50")
                .kernel("reduce", 1, 5, 320, 100, 7, "\"est. achieved occupancy %\":20,\"blocks per SM\":0.5")
                .kernel("ncclKernel_AllReduce", 2, 5, 500, 1000, 20, "\"est. achieved occupancy %\":0,\"blocks per SM\":0.02")
                .kernel("legacy", 3, 5, 1600, 100, 7, "");
        KernelOccupancy o = read(t).occupancy();
        assertEquals(2, o.kernels());
        assertEquals(400_000, o.kernelNs());
        assertEquals((100.0 * 300 + 20 * 100) / 400, o.occupancyPct(), 1e-9);
        assertEquals(100.0 * (300 + 0.5 * 100) / 400, o.smEfficiencyPct(), 1e-9);
        assertEquals(100_000, o.underOneBlockPerSmNs());
        assertEquals("reduce", o.lowest().get(0).kernel());
        assertEquals(1, o.lowest().size(), "the elementwise kernel filled every SM: no SM time lost");
    }

    @Test
    void stepsWithTheSameKernelSequenceAreCounted() throws Exception {
        Trace t = new Trace();
        String[][] steps = {{"a", "b", "c"}, {"a", "b", "c"}, {"a", "c", "b"}, {"a", "b", "c"}};
        for (int s = 0; s < steps.length; s++) {
            double base = 1000.0 * s;
            t.annotation("ProfilerStep#" + s, base, 1000);
            for (int k = 0; k < 3; k++) t.kernel(steps[s][k], base + 10 * k, base + 500 + 20 * k, 10);
        }
        StepKernelSequence q = read(t).stepSequence();
        assertEquals(4, q.steps());
        assertEquals(3, q.identicalSteps(), "the third step ran c before b");
        assertEquals(3, q.kernelsPerStep());
        assertEquals(30_000, q.stepKernelNs());
        assertEquals(0, q.graphLaunches());
    }

    @Test
    void distributedSetupComesFromDistributedInfoOrTheCollectiveNames() throws Exception {
        Trace recorded = new Trace().kernel("k", 0, 10, 10);
        recorded.extraTop = "\"distributedInfo\":{\"backend\":\"gloo\",\"rank\":0,\"world_size\":2},";
        DistributedSetup d = read(recorded).distributed();
        assertEquals("gloo", d.backend());
        assertEquals(true, d.backendRecorded());
        assertEquals(1, d.gpusWithKernels());

        Trace inferred = new Trace().annotation("gloo:all_reduce", 0, 50).annotation("gloo:all_reduce", 100, 30).kernel("k", 0, 10, 10);
        DistributedSetup g = read(inferred).distributed();
        assertEquals("gloo", g.backend());
        assertEquals(false, g.backendRecorded());
        assertEquals(80_000, g.glooNs());

        Trace dataParallel = new Trace().annotation("DataParallel.forward", 0, 500).op("Broadcast", 10, 40)
                .op("autograd::engine::evaluate_function: GatherBackward", 600, 20).kernel("k", 0, 10, 10);
        DistributedSetup p = read(dataParallel).distributed();
        assertEquals(1, p.dataParallelForwards());
        assertEquals(2, p.replicationOps());
        assertEquals(60_000, p.replicationNs());
        assertNull(p.backend());

        assertNull(read(new Trace().kernel("k", 0, 10, 10)).distributed(), "nothing distributed in the trace");
    }

    @Test
    void memoryPeaksNeedTheAllocatorsRunningTotals() throws Exception {
        Trace t = new Trace().memory(0, 100, 200, true).memory(1, 300, 400, true).memory(2, 50, 400, true).kernel("k", 0, 10, 10);
        MemoryPeak m = read(t).memoryPeaks().get(0);
        assertEquals(3, m.events());
        assertEquals(300, m.peakAllocatedBytes());
        assertEquals(400, m.peakReservedBytes());

        Trace old = new Trace().memory(0, 0, 0, false).kernel("k", 0, 10, 10);
        MemoryPeak o = read(old).memoryPeaks().get(0);
        assertEquals(-1, o.peakAllocatedBytes(), "PyTorch 1.9 events carry no totals: the peak is unknown");
    }

    @Test
    void aTraceWithoutGpuWorkHasNoneOfTheGpuSignals() throws Exception {
        ProfileFacts f = read(new Trace().op("aten::add", 0, 10).op("aten::item", 20, 5));
        assertNull(f.kernelDurations());
        assertNull(f.launches());
        assertEquals(List.of(), f.idleBreakdowns());
        assertNull(f.occupancy());
        assertNull(f.stepSequence());
        assertEquals(-1, f.hostSyncs().gpuIdleNs(), "a sync point without GPU work: its GPU cost is not measured");
    }

    @Test
    void syncIdleMatchesABruteForceCountOfIdleMoments() throws Exception {
        Random r = new Random(14);
        for (int trial = 0; trial < 500; trial++) {
            int n = r.nextInt(30);
            long[] s = new long[n];
            long[] e = new long[n];
            for (int i = 0; i < n; i++) {
                s[i] = r.nextInt(1000);
                e[i] = s[i] + r.nextInt(60);
            }
            long[] order = new long[n];
            for (int i = 0; i < n; i++) order[i] = i;
            long[] sorted = s.clone();
            ParallelSort.sort(sorted, order);
            long[] se = new long[n];
            for (int i = 0; i < n; i++) se[i] = e[(int) order[i]];
            int calls = 1 + r.nextInt(5);
            long[] cs = new long[calls];
            long[] ce = new long[calls];
            long t = 0;
            for (int i = 0; i < calls; i++) { // host calls do not overlap: one thread
                cs[i] = t + r.nextInt(200);
                ce[i] = cs[i] + r.nextInt(80);
                t = ce[i];
            }
            assertEquals(bruteForce(s, e, cs, ce), SyncIdle.measure(SyncIdle.Intervals.of(sorted, se), cs, ce), "trial " + trial);
        }
    }

    /** Idle moments from each call's start to the GPU's next operation after it (or its end), before the next call. */
    private static long bruteForce(long[] s, long[] e, long[] cs, long[] ce) {
        long idle = 0;
        for (int c = 0; c < cs.length; c++) {
            long until = ce[c];
            boolean busyAtEnd = false;
            long next = Long.MAX_VALUE;
            for (int i = 0; i < s.length; i++) {
                if (s[i] <= ce[c] && ce[c] < e[i]) busyAtEnd = true;
                if (s[i] >= ce[c]) next = Math.min(next, s[i]);
            }
            if (!busyAtEnd && next != Long.MAX_VALUE) until = next;
            if (c + 1 < cs.length) until = Math.min(until, cs[c + 1]);
            for (long x = cs[c]; x < until; x++) {
                boolean busy = false;
                for (int i = 0; i < s.length; i++) if (s[i] <= x && x < e[i]) busy = true;
                if (!busy) idle++;
            }
        }
        return idle;
    }
}
