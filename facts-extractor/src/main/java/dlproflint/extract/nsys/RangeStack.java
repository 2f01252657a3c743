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

    NvtxRange pop() {
        NvtxRange r = ranges[--size];
        ranges[size] = null;
        return r;
    }

    void push(NvtxRange r) {
        if (size == ranges.length) ranges = Arrays.copyOf(ranges, size * 2);
        ranges[size++] = r;
    }
}
