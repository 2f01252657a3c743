package dlproflint.extract.nsys;

import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A kernel's details read by its row's id are that row's columns (a NULL as 0), the row asked for again is not read
 * again, and a row that is not there is an error, not zeros.
 */
class KernelDetailsTest {
    private static final String COLUMNS = "demangledName, gridX, gridY, gridZ, blockX, blockY, blockZ";

    @Test
    void aRowsDetailsAreItsColumns() throws Exception {
        try (NsysDatabase db = NsysDatabase.open(Corpus.repoRoot().resolve("examples/resnet-like-fp32.sqlite"))) {
            String k = "CUPTI_ACTIVITY_KIND_KERNEL";
            assertTrue(KernelDetails.possible(db, k));
            List<long[]> rows = new ArrayList<>();
            try (Statement st = db.connection().createStatement();
                 ResultSet rs = st.executeQuery("SELECT rowid, " + COLUMNS + " FROM " + k + " ORDER BY rowid DESC")) {
                while (rs.next()) {
                    long[] r = new long[1 + KernelDetails.COLUMNS];
                    for (int i = 0; i < r.length; i++) r[i] = rs.getLong(i + 1);
                    rows.add(r);
                }
            }
            assertTrue(rows.size() > 100, "kernels: " + rows.size());
            try (KernelDetails details = new KernelDetails(db, k, COLUMNS)) {
                for (long[] r : rows) {
                    long[] want = java.util.Arrays.copyOfRange(r, 1, r.length);
                    assertArrayEquals(want, details.of(r[0]), "row " + r[0]);
                    assertArrayEquals(want, details.of(r[0]), "row " + r[0] + " again");
                }
                assertEquals(rows.size(), details.reads(), "each row read once");
                assertThrows(SQLException.class, () -> details.of(Long.MAX_VALUE));
            }
            assertTrue(!KernelDetails.possible(db, "no_such_table"));
        }
    }
}
