package dlproflint.extract.common;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * DLProf's iteration rule (user guide ch. 7 and 9): with N key-node instances the profile splits into
 * N+1 intervals {@code [0, stop1-1], [stop1, stop2-1], ..., [stopN, last]}; without key-node instances
 * the whole profile is one interval (iteration 0). The aggregation range is inclusive.
 */
public final class Iterations {
    private final long[] bounds; // start of interval i (bounds[0] = profile start)
    private final long last;

    private Iterations(long[] bounds, long last) {
        this.bounds = bounds;
        this.last = last;
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
        b[0] = first;
        System.arraycopy(s, 0, b, 1, s.length);
        return new Iterations(b, last);
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
        return bounds.length;
    }

    public long start(int i) {
        return bounds[i];
    }

    /** Inclusive end of interval i as DLProf writes it ({@code stop(i+1) - 1}; the last one ends at the last timestamp). */
    public long end(int i) {
        return i + 1 < bounds.length ? bounds[i + 1] - 1 : last;
    }

    /** Interval containing time t (times before the first bound fall into iteration 0). */
    public int indexOf(long t) {
        int i = Arrays.binarySearch(bounds, t);
        if (i >= 0) {
            // several equal bounds: the last interval starting at t
            while (i + 1 < bounds.length && bounds[i + 1] == t) i++;
            return i;
        }
        int ins = -i - 1;
        return Math.max(0, ins - 1);
    }

    /** Clamp a user range to the existing iterations; returns {start, stop}. */
    public int[] range(Integer iterStart, Integer iterStop) {
        int a = iterStart == null ? 0 : Math.max(0, Math.min(iterStart, count() - 1));
        int b = iterStop == null ? count() - 1 : Math.max(a, Math.min(iterStop, count() - 1));
        return new int[] {a, b};
    }

    static final Comparator<long[]> BY_START = Comparator.comparingLong(a -> a[0]);
}
