package dlproflint.extract.kineto;

/** Sorts two parallel {@code long[]} arrays by the first one (no boxing; heap sort, O(n log n)). */
final class ParallelSort {
    private ParallelSort() {
    }

    /** Keys in ascending order, and for each the index it came from. */
    record Order(long[] keys, long[] rows) {
        int row(int i) {
            return (int) rows[i];
        }
    }

    /** {@code key(0..n)} sorted, with the index each came from (the idiom of every column sorted by a key). */
    static Order order(int n, java.util.function.IntToLongFunction key) {
        long[] keys = new long[n];
        long[] rows = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = key.applyAsLong(i);
            rows[i] = i;
        }
        sort(keys, rows);
        return new Order(keys, rows);
    }

    static void sort(long[] keys, long[] values) {
        int n = keys.length;
        for (int i = n / 2 - 1; i >= 0; i--) siftDown(keys, values, i, n);
        for (int end = n - 1; end > 0; end--) {
            swap(keys, values, 0, end);
            siftDown(keys, values, 0, end);
        }
    }

    private static void siftDown(long[] k, long[] v, int i, int n) {
        while (true) {
            int l = 2 * i + 1;
            if (l >= n) return;
            int c = l + 1 < n && k[l + 1] > k[l] ? l + 1 : l;
            if (k[c] <= k[i]) return;
            swap(k, v, i, c);
            i = c;
        }
    }

    private static void swap(long[] k, long[] v, int a, int b) {
        long t = k[a];
        k[a] = k[b];
        k[b] = t;
        t = v[a];
        v[a] = v[b];
        v[b] = t;
    }
}
