package dlproflint.extract.nsys;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A row tape gives back the columns it keeps of every row appended, in its own column order, extreme values and NULL
 * flags included, across many buffers of its file; a tape not finished (a read that stopped early or failed) serves
 * nothing.
 */
class RowTapeTest {
    @Test
    void keptColumnsComeBackInTheTapesOrderWithTheirNulls() throws Exception {
        // a query's batch of five columns, of which the tape keeps end (from start), start and the fifth
        int columns = 5;
        int n = 40 * AheadCursor.BATCH + 3; // far past the tape's 64 KB buffer
        Random r = new Random(11);
        long[][] longs = new long[columns][n];
        boolean[][] nulls = new boolean[columns][n];
        long t = 0;
        for (int i = 0; i < n; i++) {
            t += r.nextInt(5) == 0 ? -r.nextInt(1 << 20) : r.nextInt(1 << 24);
            longs[1][i] = t;
            longs[2][i] = r.nextInt(100) == 0 ? Long.MIN_VALUE : t + r.nextInt(1 << 16);
            longs[4][i] = r.nextInt(100) == 0 ? Long.MAX_VALUE : r.nextLong();
            if (r.nextInt(30) == 0) {
                longs[2][i] = 0;
                nulls[2][i] = true;
            }
        }
        try (RowTape tape = new RowTape("dlprof-lint-test", new int[] {1, 2, 4}, new int[] {-1, 0, -1})) {
            appendInBatches(tape, longs, nulls, n);
            assertFalse(tape.complete(), "not before the end of the table");
            assertThrows(IllegalStateException.class, tape::cursor);
            tape.finish();
            assertTrue(tape.complete());
            assertEquals(n, tape.rows());
            RowTape.Cursor rs = tape.cursor();
            for (int i = 0; i < n; i++) {
                assertTrue(rs.next(), "row " + i);
                assertEquals(longs[1][i], rs.getLong(0), "start of row " + i);
                assertFalse(rs.isNull(0));
                assertEquals(longs[2][i], rs.getLong(1), "end of row " + i);
                assertEquals(nulls[2][i], rs.isNull(1), "end NULL of row " + i);
                assertEquals(longs[4][i], rs.getLong(2), "fifth column of row " + i);
            }
            assertFalse(rs.next());
        }
    }

    /** Appends rows {@code 0..n-1} of the columns given as a reading thread does, in batches of {@link AheadCursor#BATCH}. */
    static void appendInBatches(RowTape tape, long[][] longs, boolean[][] nulls, int n) {
        int columns = longs.length;
        for (int from = 0; from < n; from += AheadCursor.BATCH) {
            int size = Math.min(AheadCursor.BATCH, n - from);
            long[][] batch = new long[columns][AheadCursor.BATCH];
            boolean[][] batchNulls = new boolean[columns][AheadCursor.BATCH];
            for (int c = 0; c < columns; c++) {
                System.arraycopy(longs[c], from, batch[c], 0, size);
                System.arraycopy(nulls[c], from, batchNulls[c], 0, size);
            }
            tape.append(batch, batchNulls, size);
        }
    }

    @Test
    void aColumnCanOnlyBeKeptAsADifferenceFromAnEarlierOne() {
        assertThrows(IllegalArgumentException.class, () -> new RowTape("x", new int[] {1, 2}, new int[] {1, -1}));
        assertThrows(IllegalArgumentException.class, () -> new RowTape("x", new int[] {1, 2}, new int[] {-1}));
    }
}
