package dlproflint.extract.nsys;

import dlproflint.extract.common.RowCursor;

import java.sql.SQLException;

/**
 * The kernel table's rows as the correlation pass read them, kept for the GPU sweep ({@link RowTape}). The sweep needs
 * them by start, which is how nsys stores them; it read the table a second time (a million rows: SQLite's stepping and
 * seven native column fetches a row, its phase bound by that read). The correlation pass's kernel read-ahead thread
 * writes the columns the sweep uses ({@link AheadCursor}); the sweep reads them back ({@link #cursor}) in its own
 * query's column order, its start-order check applied to them as to the table.
 */
final class KernelTape implements AutoCloseable {
    /** the correlation pass's kernel query's columns the tape keeps */
    static final int PID = 0;
    static final int CORRELATION = 1;
    static final int START = 2;
    static final int END = 3;
    static final int DEVICE = 4;
    static final int SHORT_NAME = 5;
    static final int ROWID = 6;

    /** the sweep's column (see {@link #cursor}) read by row id from the kernel details */
    private static final int DETAILS = 5;

    /** kept in the sweep's column order: start, end (from the start), device, short name, pid, row id, correlation */
    final RowTape rows = new RowTape("dlprof-lint-kernels",
            new int[] {START, END, DEVICE, SHORT_NAME, PID, ROWID, CORRELATION},
            new int[] {-1, 0, -1, -1, -1, -1, -1});

    /** Whether the rows of the whole table, in storage order, were kept (and nothing failed). */
    boolean complete() {
        return rows.complete();
    }

    /**
     * The rows as the GPU sweep's kernel query gives them: start, end, deviceId, shortName, globalPid, the demangled
     * name id (read by the row's id from {@code details}, once per name the sweep meets), correlationId.
     */
    RowCursor cursor(KernelDetails details) {
        RowTape.Cursor in = rows.cursor();
        return new RowCursor() {
            @Override
            public boolean next() throws SQLException {
                return in.next();
            }

            @Override
            public long getLong(int column) throws SQLException {
                return column == DETAILS ? details.of(in.getLong(DETAILS))[0] : in.getLong(column);
            }

            @Override
            public int getInt(int column) throws SQLException {
                return (int) getLong(column);
            }

            @Override
            public String getString(int column) throws SQLException {
                return in.getString(column);
            }

            @Override
            public boolean isNull(int column) {
                return column != DETAILS && in.isNull(column);
            }

            @Override
            public void close() {
                details.close();
            }
        };
    }

    @Override
    public void close() throws java.io.IOException {
        rows.close();
    }
}
