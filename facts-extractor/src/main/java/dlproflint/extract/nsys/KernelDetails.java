package dlproflint.extract.nsys;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A kernel's demangled name id and launch dimensions, read by the row's id when a pass uses them: a few times per
 * distinct kernel, where the pass's read of the table (a million launches, read ahead on another connection) would
 * otherwise fetch those seven columns of every row. The last row asked for is kept.
 */
final class KernelDetails implements AutoCloseable {
    static final int COLUMNS = 7;
    private final PreparedStatement ps;
    private final long[] values = new long[COLUMNS];
    private long rowid;
    private boolean held;
    private long reads;

    /** @param columns the demangled name id, then grid x, y, z and block x, y, z, as SQL expressions over {@code table} */
    KernelDetails(NsysDatabase db, String table, String columns) throws SQLException {
        ps = db.connection().prepareStatement("SELECT " + columns + " FROM " + table + " WHERE rowid = ?");
    }

    /** Whether the table's rows have ids to be read by (not a WITHOUT ROWID table, which no nsys export has). */
    static boolean possible(NsysDatabase db, String table) {
        try (PreparedStatement p = db.connection().prepareStatement("SELECT rowid FROM " + table + " LIMIT 0")) {
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /** The row's values, in the order of the columns (a NULL as 0). */
    long[] of(long rowid) throws SQLException {
        if (held && rowid == this.rowid) return values;
        ps.setLong(1, rowid);
        try (ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) throw new SQLException("kernel row " + rowid + " is gone from the export");
            for (int i = 0; i < COLUMNS; i++) values[i] = rs.getLong(i + 1);
        }
        this.rowid = rowid;
        held = true;
        reads++;
        return values;
    }

    /** Rows read so far. */
    long reads() {
        return reads;
    }

    @Override
    public void close() {
        try {
            ps.close();
        } catch (SQLException e) {
            // a statement that cannot be closed is closed with its connection
        }
        if (dlproflint.extract.common.PhaseTimer.ON) System.err.printf("kernel details: %,d rows read by id%n", reads);
    }
}
