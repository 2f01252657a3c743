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

    /**
     * {@code 0 .. n-1} sorted by {@code keys[0]}, then {@code keys[1]}, ..., each ascending as signed longs (a
     * descending key is given as its bitwise complement), equal rows in index order: what {@link #sorted} gives for
     * that comparison, for a fraction of the work on large inputs (a stable radix sort, 11 bits a pass, over only the
     * bits in which a key's values differ; no call per comparison). Each key holds at least {@code n} values.
     */
    public static int[] byKeys(int n, long[]... keys) {
        if (n < RADIX_MIN) {
            return sorted(n, (a, b) -> {
                for (long[] k : keys) {
                    int c = Long.compare(k[a], k[b]);
                    if (c != 0) return c;
                }
                return 0;
            });
        }
        int[] order = new int[n];
        for (int i = 0; i < n; i++) order[i] = i;
        // rows already in order (a family's instances as they were stored, in start order): the stable sort is the
        // identity, found in one pass
        if (inOrder(n, keys)) return order;
        int[] tmp = new int[n];
        // the key's values in the current order, as unsigned (sign bit flipped): each pass reads them in sequence
        long[] cur = new long[n];
        long[] curTmp = new long[n];
        int[] count = new int[1 << DIGIT];
        // the last key only breaks ties of the others (an end among ranges of one start): the radix passes sort by the
        // keys before it, and each run of rows equal in those is sorted by it afterwards, stably - the same permutation
        // as passes over every key, without the last key's four to six passes over every row
        int radixKeys = keys.length > 1 ? keys.length - 1 : 1;
        // least significant first: the last key's digits, then the one before, ...
        for (int k = radixKeys - 1; k >= 0; k--) {
            long[] key = keys[k];
            long min = -1L; // unsigned
            long max = 0;
            for (int i = 0; i < n; i++) {
                long v = key[order[i]] ^ Long.MIN_VALUE;
                cur[i] = v;
                if (Long.compareUnsigned(v, min) < 0) min = v;
                if (Long.compareUnsigned(v, max) > 0) max = v;
            }
            // the values share every bit above the highest one min and max differ in: no pass over those
            long diff = min ^ max;
            for (int shift = 0; shift < 64 && (diff >>> shift) != 0; shift += DIGIT) {
                java.util.Arrays.fill(count, 0);
                for (int i = 0; i < n; i++) count[(int) ((cur[i] >>> shift) & MASK)]++;
                int sum = 0;
                for (int d = 0; d < count.length; d++) {
                    int c = count[d];
                    count[d] = sum;
                    sum += c;
                }
                for (int i = 0; i < n; i++) {
                    long v = cur[i];
                    int at = count[(int) ((v >>> shift) & MASK)]++;
                    tmp[at] = order[i];
                    curTmp[at] = v;
                }
                int[] t = order;
                order = tmp;
                tmp = t;
                long[] c = cur;
                cur = curTmp;
                curTmp = c;
            }
        }
        if (radixKeys < keys.length) tieBreak(order, tmp, keys, radixKeys);
        return order;
    }

    /** Whether rows {@code 0 .. n-1} are already in the order of {@code keys}. */
    private static boolean inOrder(int n, long[][] keys) {
        for (int i = 1; i < n; i++) {
            for (long[] k : keys) {
                int c = Long.compare(k[i - 1], k[i]);
                if (c < 0) break;
                if (c > 0) return false;
            }
        }
        return true;
    }

    /** Sorts each run of {@code order} equal in {@code keys[0 .. last-1]} by {@code keys[last]}, stably. */
    private static void tieBreak(int[] order, int[] tmp, long[][] keys, int last) {
        long[] by = keys[last];
        RowOrder byLast = (a, b) -> Long.compare(by[a], by[b]);
        int n = order.length;
        int from = 0;
        for (int i = 1; i <= n; i++) {
            if (i < n && samePrefix(keys, last, order[from], order[i])) continue;
            if (i - from > 1) mergeSort(order, tmp, from, i, byLast);
            from = i;
        }
    }

    private static boolean samePrefix(long[][] keys, int last, int a, int b) {
        for (int k = 0; k < last; k++) if (keys[k][a] != keys[k][b]) return false;
        return true;
    }

    /** Below this many rows a merge sort is cheaper than the radix sort's passes over its digit counts. */
    static final int RADIX_MIN = 2048;
    /** bits a pass: the counts fit the first-level cache */
    private static final int DIGIT = 11;
    private static final long MASK = (1 << DIGIT) - 1;
}
