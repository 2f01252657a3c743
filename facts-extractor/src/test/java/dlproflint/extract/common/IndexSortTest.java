package dlproflint.extract.common;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** The boxed-free index sorts order rows as Arrays.sort of Integer indexes does, equal rows in index order. */
class IndexSortTest {
    @Test
    void sortsAsTheBoxedSortDoesTiesIncluded() {
        Random r = new Random(11);
        for (int n : new int[] {0, 1, 2, 15, 16, 17, 100, 5_000, 70_001}) {
            long[] thread = new long[n];
            long[] start = new long[n];
            for (int i = 0; i < n; i++) {
                thread[i] = r.nextInt(3);
                start[i] = r.nextInt(Math.max(1, n / 4)); // many equal keys: their order is the index order
            }
            IndexSort.RowOrder order = (a, b) -> thread[a] != thread[b] ? Long.compare(thread[a], thread[b])
                    : Long.compare(start[a], start[b]);
            Integer[] boxed = new Integer[n];
            for (int i = 0; i < n; i++) boxed[i] = i;
            Arrays.sort(boxed, order::compare);
            assertArrayEquals(Arrays.stream(boxed).mapToInt(Integer::intValue).toArray(), IndexSort.sorted(n, order),
                    "n = " + n);
        }
    }

    /**
     * The radix sort by keys gives the permutation the stable comparison sort gives for the same order: ties in index
     * order, negative and extreme values in signed order, a descending key as its complement, below and above the
     * size where it switches from one to the other.
     */
    @Test
    void byKeysOrdersAsTheStableComparisonSortDoes() {
        Random r = new Random(11);
        for (int n : new int[] {0, 1, 5, IndexSort.RADIX_MIN - 1, IndexSort.RADIX_MIN, 50_000}) {
            for (int variant = 0; variant < 4; variant++) {
                long[] thread = new long[n];
                long[] start = new long[n];
                long[] endDescending = new long[n];
                for (int i = 0; i < n; i++) {
                    thread[i] = variant == 0 ? 7 : (long) r.nextInt(3) << 24;
                    start[i] = switch (variant) {
                        case 1 -> r.nextLong(); // the whole signed range
                        case 2 -> r.nextInt(50); // many ties
                        case 3 -> r.nextBoolean() ? Long.MIN_VALUE + r.nextInt(3) : Long.MAX_VALUE - r.nextInt(3);
                        default -> 1_700_000_000_000_000_000L + r.nextInt(1 << 30);
                    };
                    endDescending[i] = ~(start[i] + r.nextInt(4));
                }
                int[] want = IndexSort.sorted(n, (a, b) -> thread[a] != thread[b] ? Long.compare(thread[a], thread[b])
                        : start[a] != start[b] ? Long.compare(start[a], start[b])
                        : Long.compare(endDescending[a], endDescending[b]));
                assertArrayEquals(want, IndexSort.byKeys(n, thread, start, endDescending), "n=" + n + " variant " + variant);
                int[] byStart = IndexSort.sorted(n, (a, b) -> Long.compare(start[a], start[b]));
                assertArrayEquals(byStart, IndexSort.byKeys(n, start), "one key, n=" + n + " variant " + variant);
                // rows already in order, ties included (the identity), and in order but for one pair
                long[] sortedThread = new long[n];
                long[] sortedStart = new long[n];
                long[] sortedEnd = new long[n];
                for (int i = 0; i < n; i++) {
                    sortedThread[i] = thread[want[i]];
                    sortedStart[i] = start[want[i]];
                    sortedEnd[i] = endDescending[want[i]];
                }
                int[] identity = java.util.stream.IntStream.range(0, n).toArray();
                assertArrayEquals(identity, IndexSort.byKeys(n, sortedThread, sortedStart, sortedEnd), "in order, n=" + n);
                if (n > 2) {
                    long t = sortedEnd[n / 2];
                    sortedEnd[n / 2] = sortedEnd[n / 2 + 1] - 1; // an end out of order where the starts may tie
                    int[] nearly = IndexSort.sorted(n, (a, b) -> sortedThread[a] != sortedThread[b]
                            ? Long.compare(sortedThread[a], sortedThread[b]) : sortedStart[a] != sortedStart[b]
                            ? Long.compare(sortedStart[a], sortedStart[b]) : Long.compare(sortedEnd[a], sortedEnd[b]));
                    assertArrayEquals(nearly, IndexSort.byKeys(n, sortedThread, sortedStart, sortedEnd), "nearly, n=" + n);
                    sortedEnd[n / 2] = t;
                }
            }
        }
    }
}
