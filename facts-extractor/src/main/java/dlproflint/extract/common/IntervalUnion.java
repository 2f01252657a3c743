package dlproflint.extract.common;

import java.util.Arrays;

/**
 * Length of the union of intervals ("flattening" in DLProf's words: overlapping time counted once).
 * {@link #add} accepts intervals in any order. Intervals that come in start order (a stream's work does) are merged
 * as they come: what is kept is the union's disjoint segments, the first in two fields and the others in arrays made
 * only when a second segment starts. An op instance has one of these, and a 1M-launch profile a million op instances,
 * most with one segment or none: two arrays each made up most of what such a read allocated. An interval out of
 * order is kept as it is, and the segments are sorted and merged when asked for their length. Use one instance per op
 * instance (bounded by that instance's GPU work), never per profile.
 */
public final class IntervalUnion {
    /** the first segment (size &gt; 0) */
    private long start0;
    private long end0;
    /** segments 1.. (null until there is a second) */
    private long[] starts;
    private long[] ends;
    private int size;
    /** the segments are in start order and disjoint (else: intervals as they came after the first out of order) */
    private boolean merged = true;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;

    public void add(long start, long end) {
        if (end < start) end = start;
        min = Math.min(min, start);
        max = Math.max(max, end);
        if (size == 0) {
            start0 = start;
            end0 = end;
            size = 1;
            return;
        }
        int last = size - 1;
        long lastStart = startOf(last);
        if (merged && start >= lastStart) {
            long lastEnd = endOf(last);
            // every earlier segment ends before the last one starts: this interval can only touch the last one
            if (start <= lastEnd) {
                if (end > lastEnd) setEnd(last, end);
                return;
            }
        } else {
            merged = false;
        }
        append(start, end);
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public long min() {
        return min;
    }

    public long max() {
        return max;
    }

    /** Total covered time. */
    public long covered() {
        if (size == 0) return 0;
        if (!merged) sortAndMerge();
        long total = end0 - start0;
        for (int i = 0; i < size - 1; i++) total += ends[i] - starts[i];
        return total;
    }

    private long startOf(int i) {
        return i == 0 ? start0 : starts[i - 1];
    }

    private long endOf(int i) {
        return i == 0 ? end0 : ends[i - 1];
    }

    private void setEnd(int i, long end) {
        if (i == 0) end0 = end;
        else ends[i - 1] = end;
    }

    private void append(long start, long end) {
        if (starts == null) {
            starts = new long[4];
            ends = new long[4];
        } else if (size - 1 == starts.length) {
            starts = Arrays.copyOf(starts, starts.length * 2);
            ends = Arrays.copyOf(ends, ends.length * 2);
        }
        starts[size - 1] = start;
        ends[size - 1] = end;
        size++;
    }

    /** Sorts the intervals by start and merges them into disjoint segments (rare: intervals out of order). */
    private void sortAndMerge() {
        int n = size;
        long[] asAdded = new long[n];
        for (int i = 0; i < n; i++) asAdded[i] = startOf(i);
        int[] idx = IndexSort.byKeys(n, asAdded);
        long[] s = new long[n];
        long[] e = new long[n];
        for (int i = 0; i < n; i++) {
            s[i] = startOf(idx[i]);
            e[i] = endOf(idx[i]);
        }
        size = 0;
        merged = true;
        long keepMin = min;
        long keepMax = max;
        for (int i = 0; i < n; i++) add(s[i], e[i]);
        min = keepMin;
        max = keepMax;
    }

    public void clear() {
        size = 0;
        merged = true;
        min = Long.MAX_VALUE;
        max = Long.MIN_VALUE;
    }
}
