package dlproflint.extract.common;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** The boxed-free index sort orders rows as Arrays.sort of Integer indexes does, equal rows in index order. */
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
}
