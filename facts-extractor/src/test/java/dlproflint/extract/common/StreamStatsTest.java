package dlproflint.extract.common;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The streams' statistics come out the same whether a reader feeds the streams one at a time in (device, process,
 * stream) order, as the Kineto reader does, or interleaved in launch order with each operation naming its stream,
 * as the nsys correlation pass does.
 */
class StreamStatsTest {
    private record Op(int device, long pid, long stream, boolean kernel, long start, long end, long callStart, long callEnd) {
    }

    @Test
    void interleavedStreamsGiveTheStatisticsOfStreamsFedOneAtATime() {
        Random r = new Random(12);
        int compared = 0;
        for (int trial = 0; trial < 200; trial++) {
            List<Op> ops = new ArrayList<>();
            int streams = 1 + r.nextInt(6);
            for (int s = 0; s < streams; s++) {
                int device = r.nextInt(2);
                long pid = 100 + r.nextInt(2);
                long stream = 7 + r.nextInt(4);
                long t = r.nextInt(1000);
                long call = t - r.nextInt(50);
                for (int i = 0, n = r.nextInt(40); i < n; i++) {
                    call += r.nextInt(60_000);
                    long callEnd = call + r.nextInt(80_000);
                    long start = Math.max(t, callEnd + r.nextInt(150_000));
                    long end = start + r.nextInt(200_000);
                    boolean linked = r.nextInt(10) > 0;
                    ops.add(new Op(device, pid, stream, r.nextBoolean(), start, end, linked ? call : StreamStats.NO_CALL,
                            linked ? callEnd : StreamStats.NO_CALL));
                    t = end;
                }
            }
            // one stream at a time, in key order (a stream drawn twice continues where it was)
            List<Op> byStream = new ArrayList<>(ops);
            byStream.sort(Comparator.comparingInt(Op::device).thenComparingLong(Op::pid).thenComparingLong(Op::stream)
                    .thenComparingLong(Op::start));
            StreamStats whole = new StreamStats();
            Op prev = null;
            for (Op o : byStream) {
                if (prev == null || prev.device != o.device || prev.pid != o.pid || prev.stream != o.stream) {
                    whole.stream(o.device, o.stream);
                }
                whole.op(o.kernel, o.start, o.end, o.callStart, o.callEnd);
                prev = o;
            }
            // interleaved by start, each stream still in its own order
            List<Op> interleaved = new ArrayList<>(byStream);
            interleaved.sort(Comparator.comparingLong(Op::start));
            StreamStats mixed = new StreamStats();
            for (Op o : interleaved) {
                mixed.op(o.device, o.pid, o.stream, o.kernel, o.start, o.end, o.callStart, o.callEnd);
            }
            // the same operations spread over segments, all of them kept, are the same statistics
            StreamStats segmented = new StreamStats(4);
            for (Op o : interleaved) {
                segmented.op(r.nextInt(4), o.device, o.pid, o.stream, o.kernel, o.start, o.end, o.callStart, o.callEnd);
            }
            assertEquals(whole.idleBreakdowns(), segmented.idleBreakdowns(), "segmented trial " + trial);
            assertEquals(whole.durations(), segmented.durations(), "segmented trial " + trial);
            assertEquals(whole.launches(), segmented.launches(), "segmented trial " + trial);
            assertEquals(whole.idleBreakdowns(), mixed.idleBreakdowns(), "trial " + trial);
            assertEquals(whole.durations(), mixed.durations(), "trial " + trial);
            assertEquals(whole.launches(), mixed.launches(), "trial " + trial);
            if (!mixed.idleBreakdowns().isEmpty() && mixed.launches() != null) compared++;
        }
        assertTrue(compared > 150, "most trials compare breakdowns and launch statistics: " + compared);
    }

    /** Segments left out count for nothing: kept alone, a segment's operations give their own figures. */
    @Test
    void segmentsLeftOutDoNotCount() {
        StreamStats s = new StreamStats(2);
        s.op(1, 0, 5, 7, true, 0, 1_000_000, StreamStats.NO_CALL, StreamStats.NO_CALL); // warm-up: a long kernel
        s.op(0, 0, 5, 7, true, 1_100_000, 1_110_000, 1_000, 2_000);
        s.op(0, 0, 5, 7, true, 1_120_000, 1_130_000, 3_000, 4_000);
        s.keep(new boolean[] {true, false});
        assertEquals(2, s.durations().kernels());
        assertEquals(20_000, s.durations().totalNs());
        assertEquals(2, s.launches().launches());
        // the kept operations' span runs from the first kept one (the gap after the warm-up kernel is theirs)
        assertEquals(30_000, s.idleBreakdowns().get(0).spanNs());
    }

    /** Two streams of a device with the same kernel time: the first in (device, process, stream) order speaks. */
    @Test
    void aTieGoesToTheFirstStreamInKeyOrderWhateverOrderTheyCameIn() {
        StreamStats mixed = new StreamStats();
        mixed.op(0, 5, 9, true, 100, 200, StreamStats.NO_CALL, StreamStats.NO_CALL);
        mixed.op(0, 5, 3, true, 150, 250, StreamStats.NO_CALL, StreamStats.NO_CALL);
        assertEquals(1, mixed.idleBreakdowns().size());
        assertEquals(3, mixed.idleBreakdowns().get(0).stream());
    }
}
