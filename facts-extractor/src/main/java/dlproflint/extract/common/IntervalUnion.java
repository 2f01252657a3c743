package dlproflint.extract.common;

import java.util.Arrays;

/**
 * Length of the union of intervals ("flattening" in DLProf's words: overlapping time counted once).
 * {@link #add} accepts intervals in any order; they are kept in two growable primitive arrays, so
 * use one instance per op instance (bounded by that instance's GPU work), never per profile.
 */
public final class IntervalUnion {
    private long[] starts = new long[8];
    private long[] ends = new long[8];
    private int size;
    private boolean sorted = true;

    public void add(long start, long end) {
        if (end < start) end = start;
        if (size == starts.length) {
            starts = Arrays.copyOf(starts, size * 2);
            ends = Arrays.copyOf(ends, size * 2);
        }
        if (size > 0 && start < starts[size - 1]) sorted = false;
        starts[size] = start;
        ends[size] = end;
        size++;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public long min() {
        long m = Long.MAX_VALUE;
        for (int i = 0; i < size; i++) m = Math.min(m, starts[i]);
        return m;
    }

    public long max() {
        long m = Long.MIN_VALUE;
        for (int i = 0; i < size; i++) m = Math.max(m, ends[i]);
        return m;
    }

    /** Total covered time. */
    public long covered() {
        if (size == 0) return 0;
        if (!sorted) sortByStart();
        long total = 0;
        long cs = starts[0];
        long ce = ends[0];
        for (int i = 1; i < size; i++) {
            if (starts[i] <= ce) {
                if (ends[i] > ce) ce = ends[i];
            } else {
                total += ce - cs;
                cs = starts[i];
                ce = ends[i];
            }
        }
        return total + (ce - cs);
    }

    private void sortByStart() {
        Integer[] idx = new Integer[size];
        for (int i = 0; i < size; i++) idx[i] = i;
        Arrays.sort(idx, (a, b) -> Long.compare(starts[a], starts[b]));
        long[] s = new long[size];
        long[] e = new long[size];
        for (int i = 0; i < size; i++) {
            s[i] = starts[idx[i]];
            e[i] = ends[idx[i]];
        }
        starts = s;
        ends = e;
        sorted = true;
    }

    public void clear() {
        size = 0;
        sorted = true;
    }
}
