package dlproflint.extract.kineto;

import java.util.Arrays;

/** A growable {@code int[]} column. */
final class IntColumn {
    private int[] values = new int[1024];
    private int size;

    void add(int v) {
        if (size == values.length) values = Arrays.copyOf(values, size + (size >> 1));
        values[size++] = v;
    }

    int get(int i) {
        return values[i];
    }

    int size() {
        return size;
    }
}
