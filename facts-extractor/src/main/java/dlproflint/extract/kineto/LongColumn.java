package dlproflint.extract.kineto;

import java.util.Arrays;

/** A growable {@code long[]}: one column of a compact event table (no object per event). */
final class LongColumn {
    private long[] values = new long[1024];
    private int size;

    void add(long v) {
        if (size == values.length) values = Arrays.copyOf(values, size + (size >> 1));
        values[size++] = v;
    }

    long get(int i) {
        return values[i];
    }

    void set(int i, long v) {
        values[i] = v;
    }

    int size() {
        return size;
    }

    /** A sorted copy of the values. */
    long[] sorted() {
        long[] copy = Arrays.copyOf(values, size);
        Arrays.sort(copy);
        return copy;
    }
}
