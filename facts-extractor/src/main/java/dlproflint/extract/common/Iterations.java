package dlproflint.extract.common;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The iterations of a profile as time windows, and which iteration a moment belongs to.
 *
 * <p>Every iteration has its own window {@code [start(i), stop(i))} (its duration). Attribution is
 * contiguous: a moment belongs to the last iteration that started at or before it, work before the first
 * iteration to the first and work after the last to the last, so nothing is lost when windows leave gaps
 * (step ranges) or the capture has a head and a tail.
 *
 * <p>DLProf's key-node rule (user guide ch. 7 and 9): with N key-node instances the profile splits into
 * N+1 intervals {@code [0, stop1-1], [stop1, stop2-1], ..., [stopN, last]}; without key-node instances
 * the whole profile is one interval (iteration 0). The aggregation range is inclusive.
 */
public final class Iterations {
    private final long[] starts;
    private final long[] stops;

    private Iterations(long[] starts, long[] stops) {
        this.starts = starts;
        this.stops = stops;
    }

    /** Default key node per framework, as DLProf used it ({@code global_step} for TensorFlow; none for PyTorch). */
    public static String defaultKeyNode(String framework) {
        if (framework == null) return null;
        return switch (framework.toLowerCase(Locale.ROOT)) {
            case "tensorflow" -> "global_step";
            default -> null;
        };
    }

    /** @param keyStops key-node stop times (any order); @param first profile start (0 in nsys time); @param last last timestamp */
    public static Iterations fromKeyStops(long[] keyStops, long first, long last) {
        long[] s = keyStops.clone();
        Arrays.sort(s);
        long[] b = new long[s.length + 1];
        b[0] = s.length > 0 ? Math.min(first, s[0]) : first; // a stop before the profile start (bad clock) opens it
        System.arraycopy(s, 0, b, 1, s.length);
        long[] e = new long[b.length];
        for (int i = 0; i < b.length; i++) e[i] = i + 1 < b.length ? b[i + 1] : Math.max(last, b[i]);
        return new Iterations(b, e);
    }

    /** Iterations with their own windows; {@code starts} ascending, {@code stops[i] >= starts[i]}. */
    public static Iterations ofWindows(long[] starts, long[] stops) {
        if (starts.length != stops.length || starts.length == 0) throw new IllegalArgumentException("one window or more");
        for (int i = 0; i < starts.length; i++) {
            if (stops[i] < starts[i] || i > 0 && starts[i] < starts[i - 1]) {
                throw new IllegalArgumentException("windows must be ordered and non-negative");
            }
        }
        return new Iterations(starts.clone(), stops.clone());
    }

    /**
     * Multi-GPU rule (ch. 9): when every device has the same number of key-node instances, split point N is
     * the latest N-th stop over the devices; otherwise every instance on any device starts an iteration.
     */
    public static long[] multiGpuStops(Map<Integer, List<Long>> stopsByDevice) {
        if (stopsByDevice.size() <= 1) {
            return stopsByDevice.values().stream().flatMap(List::stream).mapToLong(Long::longValue).sorted().toArray();
        }
        int n = -1;
        boolean equal = true;
        for (List<Long> l : stopsByDevice.values()) {
            if (n < 0) n = l.size();
            else if (n != l.size()) equal = false;
        }
        if (!equal) {
            return stopsByDevice.values().stream().flatMap(List::stream).mapToLong(Long::longValue).sorted().toArray();
        }
        long[] out = new long[n];
        Map<Integer, List<Long>> sorted = new TreeMap<>();
        stopsByDevice.forEach((d, l) -> {
            List<Long> c = new ArrayList<>(l);
            Collections.sort(c);
            sorted.put(d, c);
        });
        for (int i = 0; i < n; i++) {
            long m = Long.MIN_VALUE;
            for (List<Long> l : sorted.values()) m = Math.max(m, l.get(i));
            out[i] = m;
        }
        return out;
    }

    public int count() {
        return starts.length;
    }

    public long start(int i) {
        return starts[i];
    }

    /** These iterations with the last one's stop at {@code stop} (no earlier than its start). */
    Iterations withLastStop(long stop) {
        long[] s = stops.clone();
        int last = s.length - 1;
        s[last] = Math.max(starts[last], stop);
        return new Iterations(starts.clone(), s);
    }

    /** Exclusive end of iteration i's own window. */
    public long stop(int i) {
        return stops[i];
    }

    /** Inclusive end of interval i as DLProf writes it ({@code stop(i) - 1}; the last one ends at the last timestamp). */
    public long end(int i) {
        return i + 1 < starts.length ? stops[i] - 1 : stops[i];
    }

    /** Iteration a moment belongs to (see the class comment: before the first → 0, after the last → last). */
    public int indexOf(long t) {
        // the interval of the previous answer first: a pass asks in time order, mostly within one iteration (the
        // field is read once; another thread's answer in it is checked like this one's)
        int k = lastIndex;
        if (k < starts.length && starts[k] <= t && (k + 1 == starts.length || t < starts[k + 1])) return k;
        k = search(t);
        lastIndex = k;
        return k;
    }

    /** The previous answer of {@link #indexOf} (0 before any). */
    private int lastIndex;

    private int search(long t) {
        int i = Arrays.binarySearch(starts, t);
        if (i >= 0) {
            // several equal bounds: the last interval starting at t
            while (i + 1 < starts.length && starts[i + 1] == t) i++;
            return i;
        }
        int ins = -i - 1;
        return Math.max(0, ins - 1);
    }

    /**
     * The iteration whose CPU period holds a moment of host work ({@link #indexOf} between the first iteration's start
     * and the last one's stop), -1 before the first or from the last one's stop on: host work outside every step (a
     * collective of the warm-up before the capture's first step) is no step's.
     */
    public int holding(long t) {
        if (t < starts[0] || t >= stops[stops.length - 1]) return -1;
        return indexOf(t);
    }

    /** Clamp a user range to the existing iterations; returns {start, stop}. */
    public int[] range(Integer iterStart, Integer iterStop) {
        int a = iterStart == null ? 0 : Math.max(0, Math.min(iterStart, count() - 1));
        int b = iterStop == null ? count() - 1 : Math.max(a, Math.min(iterStop, count() - 1));
        return new int[] {a, b};
    }

    /**
     * Adds the part of {@code [from, to)} that lies in each iteration's own window to {@code perIteration};
     * calls must not overlap each other (disjoint busy segments), in any order.
     */
    public void addOverlap(long from, long to, long[] perIteration) {
        if (to <= from) return;
        int i = indexOf(from);
        // a window that started before `from` may still reach into it; earlier ones cannot (windows are ordered)
        while (i > 0 && stops[i - 1] > from) i--;
        for (; i < starts.length && starts[i] < to; i++) {
            long a = Math.max(from, starts[i]);
            long b = Math.min(to, stops[i]);
            if (b > a) perIteration[i] += b - a;
        }
    }

    /** Time covered by the intervals (sorted start and end times; overlaps counted once) in each iteration's window. */
    public long[] coveredPerIteration(long[] sortedStarts, long[] sortedEnds) {
        long[] out = new long[count()];
        int si = 0;
        int ei = 0;
        int active = 0;
        long segStart = 0;
        while (si < sortedStarts.length || ei < sortedEnds.length) {
            boolean start = si < sortedStarts.length && (ei >= sortedEnds.length || sortedStarts[si] <= sortedEnds[ei]);
            if (start) {
                if (active++ == 0) segStart = sortedStarts[si];
                si++;
            } else {
                if (active > 0 && --active == 0) addOverlap(segStart, sortedEnds[ei], out);
                ei++;
            }
        }
        return out;
    }
}
