package dlproflint.extract.nsys;

import java.util.Arrays;

/**
 * A thread's open NVTX ranges in the correlation pass, innermost on top. Every API call walks its thread's stack from
 * the top for the range that holds it: indexed here, where a deque made an iterator per call (a million on a 1M-launch
 * export).
 */
final class RangeStack {
    private NvtxRange[] ranges = new NvtxRange[16];
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** The innermost range, or null. */
    NvtxRange peek() {
        return size == 0 ? null : ranges[size - 1];
    }

    /** The {@code i}-th range from the top (0: the innermost). */
    NvtxRange fromTop(int i) {
        return ranges[size - 1 - i];
    }

    /**
     * Closes the innermost range. Its object stays the stack's, for a later {@link #next} to fill: the caller uses it
     * before it opens another range, and keeps nothing of it but its owner (a range object a range was a tenth of
     * what the correlation pass allocated).
     */
    NvtxRange pop() {
        return ranges[--size];
    }

    /** The object of the next range to open, its fields set as given: the stack's spare one, or a new one. */
    NvtxRange next(long start, long end, MarkerText marker, long seq, boolean pushPop) {
        if (size == ranges.length) ranges = Arrays.copyOf(ranges, size * 2);
        NvtxRange r = ranges[size];
        if (r == null) ranges[size] = r = new NvtxRange();
        return r.set(start, end, marker, seq, pushPop);
    }

    /** Opens the range {@link #next} gave, innermost now. */
    void open() {
        size++;
    }
}
