package dlproflint.extract.common;

/**
 * Row indexes sorted by a comparison of the rows they name, without boxing: the readers keep events as parallel
 * columns and sort hundreds of thousands of indexes at a time, where an {@code Integer[]} sorted through a
 * comparator lambda costs an object per row and a boxed call per comparison. Stable (a merge sort), as
 * {@code Arrays.sort} of objects is: rows that compare equal keep their order.
 */
public final class IndexSort {
    private IndexSort() {
    }

    /** Compares rows {@code a} and {@code b}. */
    @FunctionalInterface
    public interface RowOrder {
        int compare(int a, int b);
    }

    /** {@code 0 .. n-1} sorted by {@code order}, equal rows in index order. */
    public static int[] sorted(int n, RowOrder order) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = i;
        int[] tmp = new int[n];
        mergeSort(a, tmp, 0, n, order);
        return a;
    }

    private static void mergeSort(int[] a, int[] tmp, int from, int to, RowOrder order) {
        if (to - from <= 16) {
            for (int i = from + 1; i < to; i++) { // insertion sort: stable
                int v = a[i];
                int j = i - 1;
                while (j >= from && order.compare(a[j], v) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, tmp, from, mid, order);
        mergeSort(a, tmp, mid, to, order);
        if (order.compare(a[mid - 1], a[mid]) <= 0) return; // already in order
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || i < mid && order.compare(tmp[i], tmp[j]) <= 0) a[k] = tmp[i++];
            else a[k] = tmp[j++];
        }
    }
}
