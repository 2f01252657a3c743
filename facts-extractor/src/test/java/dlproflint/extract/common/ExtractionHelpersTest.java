package dlproflint.extract.common;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The format-neutral DLProf rules every reader shares. */
class ExtractionHelpersTest {
    @Test
    void apiNamesLoseOnlyTheAbiVersionSuffix() {
        assertEquals("cudaLaunchKernel", ApiNames.normalize("cudaLaunchKernel_v7000"));
        assertEquals("cudaGetDeviceProperties_v2", ApiNames.normalize("cudaGetDeviceProperties_v2_v12000"));
        assertEquals("cuGetProcAddress_v2", ApiNames.normalize("cuGetProcAddress_v2"));
        assertEquals("sync", ApiNames.category("cudaDeviceSynchronize"));
        assertEquals("memcpy", ApiNames.category("cudaMemcpyAsync"));
        assertEquals("memset", ApiNames.category("cudaMemsetAsync"));
        assertEquals("malloc", ApiNames.category("cudaHostAlloc"));
        assertEquals("launch", ApiNames.category("cudaLaunchKernel"));
    }

    @Test
    void opIdsCountPerTypeInOrderOfAppearance() {
        OpIds ids = new OpIds();
        assertEquals("CONV2D_1", ids.next("conv2d"));
        assertEquals("UNIFORM__1", ids.next("uniform_"));
        assertEquals("CONV2D_2", ids.next("conv2d"));
        assertEquals("CUDADEVICESYNCHRONIZE_V3020_1", ids.next("cudaDeviceSynchronize_v3020"));
    }

    @Test
    void tensorCoreEligibleOpTypes() {
        assertTrue(TensorCores.opTypeEligible("_scaled_mm"), "FP8 GEMMs");
        assertTrue(TensorCores.opTypeEligible("aten::_flash_attention_forward"));
        assertTrue(TensorCores.opTypeEligible("conv2d"));
        assertTrue(TensorCores.opTypeEligible("linear"));
        assertTrue(TensorCores.opTypeEligible("ConvolutionBackward0"));
        assertFalse(TensorCores.opTypeEligible("relu"));
        assertFalse(TensorCores.opTypeEligible("max_pool2d"));
    }

    @Test
    void iterationsFollowTheKeyNodeStopTimes() {
        Iterations none = Iterations.fromKeyStops(new long[0], 0, 1000);
        assertEquals(1, none.count());
        assertEquals(1000, none.end(0));
        Iterations its = Iterations.fromKeyStops(new long[] {300, 100}, 0, 1000);
        assertEquals(3, its.count(), "N instances, N+1 intervals");
        assertEquals(99, its.end(0));
        assertEquals(100, its.start(1));
        assertEquals(0, its.indexOf(99));
        assertEquals(1, its.indexOf(100));
        assertEquals(2, its.indexOf(999));
        assertArrayEquals(new int[] {1, 2}, its.range(1, 7), "range clamped, inclusive");
        assertEquals("global_step", Iterations.defaultKeyNode("tensorflow"));
        assertEquals(null, Iterations.defaultKeyNode("pytorch"));
    }

    /**
     * The iteration of a moment is the binary search's answer whatever the order of the questions (the previous
     * answer is tried first): in time order, backwards, at random, on equal bounds, before the first and after the
     * last window.
     */
    @Test
    void theIterationOfAMomentDoesNotDependOnTheQuestionsBeforeIt() {
        long[] starts = {10, 20, 20, 20, 35, 50, 50, 80};
        long[] stops = {20, 20, 20, 35, 50, 50, 80, 90};
        java.util.List<Long> times = new java.util.ArrayList<>();
        for (long t = 0; t <= 100; t++) times.add(t);
        java.util.List<java.util.List<Long>> orders = new java.util.ArrayList<>();
        orders.add(times);
        java.util.List<Long> backwards = new java.util.ArrayList<>(times);
        java.util.Collections.reverse(backwards);
        orders.add(backwards);
        java.util.List<Long> shuffled = new java.util.ArrayList<>(times);
        java.util.Collections.shuffle(shuffled, new java.util.Random(7));
        orders.add(shuffled);
        for (java.util.List<Long> order : orders) {
            Iterations its = Iterations.ofWindows(starts, stops);
            for (long t : order) {
                int i = java.util.Arrays.binarySearch(starts, t);
                int want;
                if (i >= 0) {
                    while (i + 1 < starts.length && starts[i + 1] == t) i++;
                    want = i;
                } else {
                    want = Math.max(0, -i - 2);
                }
                assertEquals(want, its.indexOf(t), "t = " + t);
                assertEquals(want, its.indexOf(t), "t = " + t + " again");
            }
        }
    }

    @Test
    void multiGpuKeyNodeUsesTheLatestNthStopWhenCountsAreEqual() {
        assertArrayEquals(new long[] {120, 220}, Iterations.multiGpuStops(Map.of(0, List.of(100L, 200L), 1, List.of(120L, 220L))));
        assertArrayEquals(new long[] {100, 120, 200}, Iterations.multiGpuStops(Map.of(0, List.of(100L, 200L), 1, List.of(120L))));
    }

    @Test
    void unionFlattensOverlaps() {
        IntervalUnion u = new IntervalUnion();
        u.add(50, 60);
        u.add(0, 10);
        u.add(5, 20);
        assertEquals(30, u.covered());
        assertEquals(0, u.min());
        assertEquals(60, u.max());
    }

    @Test
    void unionMatchesCountedInstantsInAnyOrder() {
        // intervals in start order (merged as they come), then with some out of order, touching, nested, empty and
        // inverted ones: the union's length is the number of covered unit instants, whatever the order
        java.util.Random random = new java.util.Random(25);
        for (int trial = 0; trial < 2_000; trial++) {
            int n = random.nextInt(12);
            long[][] iv = new long[n][2];
            for (int i = 0; i < n; i++) {
                long s = random.nextInt(60);
                iv[i][0] = s;
                iv[i][1] = s + random.nextInt(15) - 2; // some inverted (taken as empty)
            }
            if (trial % 2 == 0) java.util.Arrays.sort(iv, (a, b) -> Long.compare(a[0], b[0]));
            IntervalUnion u = new IntervalUnion();
            boolean[] covered = new boolean[80];
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (int i = 0; i < n; i++) {
                u.add(iv[i][0], iv[i][1]);
                long end = Math.max(iv[i][0], iv[i][1]);
                for (long t = iv[i][0]; t < end; t++) covered[(int) t] = true;
                min = Math.min(min, iv[i][0]);
                max = Math.max(max, end);
                if (random.nextInt(4) == 0) {
                    // asked on the way: later intervals go on from the merged segments
                    long want = 0;
                    for (boolean c : covered) if (c) want++;
                    assertEquals(want, u.covered(), "trial " + trial + " after " + (i + 1));
                }
            }
            long want = 0;
            for (boolean c : covered) if (c) want++;
            assertEquals(want, u.covered(), "trial " + trial);
            assertEquals(n == 0, u.isEmpty());
            if (n > 0) {
                assertEquals(min, u.min());
                assertEquals(max, u.max());
            }
            u.clear();
            assertTrue(u.isEmpty());
            assertEquals(0, u.covered());
        }
    }

    @Test
    void timelineChargesEachInstantToTheHighestCategory() throws Exception {
        // category 0 on [10,20), category 1 on [0,30), nothing on [30,40)
        PriorityTimeline.Result r = new PriorityTimeline(2, 0, 40, 0b11).run(List.of(
                source(0, new long[][] {{10, 20}}), source(1, new long[][] {{0, 30}})));
        assertEquals(10, r.byCategory()[0]);
        assertEquals(20, r.byCategory()[1]);
        assertEquals(10, r.other());
        assertEquals(30, r.masked()[0]);
        assertEquals(25.0, r.otherPct(), 1e-9);
    }

    private static IntervalSource source(int category, long[][] intervals) {
        return new IntervalSource() {
            int i = -1;

            @Override
            public boolean next() {
                return ++i < intervals.length;
            }

            @Override
            public long start() {
                return intervals[i][0];
            }

            @Override
            public long end() {
                return intervals[i][1];
            }

            @Override
            public int category() {
                return category;
            }
        };
    }

    @Test
    void dlprofShapes() {
        assertEquals("<N:32, C:3, H:32, W:32>; <K:6, C:3, R:3, S:3>; <6>", Shapes.format("conv2d",
                List.of(List.of(32L, 3L, 32L, 32L), List.of(6L, 3L, 3L, 3L), List.of(6L))));
        assertEquals("<N:32, K:400>; <M:120, K:400>; <120>", Shapes.format("linear",
                List.of(List.of(32L, 400L), List.of(120L, 400L), List.of(120L))));
        assertEquals("<32, 6, 30, 30>", Shapes.format("relu", List.of(List.of(32L, 6L, 30L, 30L))));
    }
}
