package dlproflint.extract.nsys;

import dlproflint.extract.common.RowCursor;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kernel tape gives the GPU sweep back every row the correlation pass read, each column as that read had it (a
 * NULL as 0, told apart), in the sweep's column order; only a tape finished after the whole table serves.
 */
class KernelTapeTest {
    private static final int COLUMNS = 8; // the correlation pass's kernel query: ..., rowid, streamId

    @Test
    void everyRowComesBackInTheSweepsColumns() throws Exception {
        Random r = new Random(7);
        int n = 3 * AheadCursor.BATCH + 17;
        long[][] longs = new long[COLUMNS][n];
        boolean[][] nulls = new boolean[COLUMNS][n];
        long t = 1_700_000_000_000_000_000L;
        for (int i = 0; i < n; i++) {
            t += r.nextInt(3) == 0 ? -r.nextInt(1000) : r.nextInt(1 << 20); // out of order now and then
            longs[KernelTape.START][i] = t;
            longs[KernelTape.END][i] = t + r.nextInt(100_000) - (r.nextInt(50) == 0 ? 200_000 : 0);
            longs[KernelTape.DEVICE][i] = r.nextInt(8);
            longs[KernelTape.SHORT_NAME][i] = r.nextInt(5000);
            longs[KernelTape.PID][i] = r.nextBoolean() ? 0x1234L << 24 : Long.MAX_VALUE - r.nextInt(10);
            longs[KernelTape.CORRELATION][i] = r.nextInt(1 << 30);
            longs[KernelTape.ROWID][i] = i + 1;
            for (int c : new int[] {KernelTape.START, KernelTape.END, KernelTape.SHORT_NAME, KernelTape.CORRELATION}) {
                if (r.nextInt(40) == 0) {
                    longs[c][i] = 0;
                    nulls[c][i] = true;
                }
            }
        }
        try (KernelTape tape = new KernelTape()) {
            RowTapeTest.appendInBatches(tape.rows, longs, nulls, n);
            assertFalse(tape.complete(), "not before the end of the table");
            tape.rows.finish();
            assertTrue(tape.complete());
            assertEquals(n, tape.rows.rows());
            for (int pass = 0; pass < 2; pass++) { // a second cursor reads from the start again
                RowCursor rs = tape.cursor(null);
                for (int i = 0; i < n; i++) {
                    assertTrue(rs.next(), "row " + i);
                    assertEquals(longs[KernelTape.START][i], rs.getLong(0));
                    assertEquals(nulls[KernelTape.START][i], rs.isNull(0));
                    assertEquals(longs[KernelTape.END][i], rs.getLong(1));
                    assertEquals(nulls[KernelTape.END][i], rs.isNull(1));
                    assertEquals((int) longs[KernelTape.DEVICE][i], rs.getInt(2));
                    assertEquals(longs[KernelTape.SHORT_NAME][i], rs.getLong(3));
                    assertEquals(nulls[KernelTape.SHORT_NAME][i], rs.isNull(3));
                    assertEquals(longs[KernelTape.PID][i], rs.getLong(4));
                    assertEquals(longs[KernelTape.CORRELATION][i], rs.getLong(6));
                    assertEquals(nulls[KernelTape.CORRELATION][i], rs.isNull(6));
                }
                assertFalse(rs.next());
            }
        }
    }

    @Test
    void anEmptyTableMakesAnEmptyTape() throws Exception {
        try (KernelTape tape = new KernelTape()) {
            tape.rows.append(new long[COLUMNS][AheadCursor.BATCH], new boolean[COLUMNS][AheadCursor.BATCH], 0);
            tape.rows.finish();
            assertTrue(tape.complete());
            assertFalse(tape.cursor(null).next());
        }
    }
}
