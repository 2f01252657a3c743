package dlproflint.extract.kineto;

/** Sorts two parallel {@code long[]} arrays by the first one (no boxing; heap sort, O(n log n)). */
final class ParallelSort {
    private ParallelSort() {
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
