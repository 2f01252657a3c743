package dlproflint.extract.nsys;

import static dlproflint.extract.nsys.Varint.unzigzag;
import static dlproflint.extract.nsys.Varint.zigzag;

import dlproflint.extract.common.RowCursor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.sql.SQLException;

/**
 * Some columns of a table's rows as a read took them, in storage order, kept for a later pass that needs the same
 * rows (issue 25: one read of every table). The correlation pass's read-ahead threads ({@link AheadCursor}), which have
 * time to spare, write them as they read; the later pass reads them back ({@link #cursor}) where it read the table a
 * second time, the storage order checked as it checked it before. A tape serves only a read that went through the
 * whole table in storage order ({@link #complete}); else the later pass reads the table as before.
 *
 * <p>Each row is a varint of its NULL flags, then each kept column as a zigzag varint: the difference from the same
 * column of the row before, or from an earlier column of the same row (an end from its start), small numbers of a
 * byte or two. In a {@link SpillFile}: about 15 MB for a million kernels' seven columns.
 */
final class RowTape implements AutoCloseable {
    private static final int BUFFER = 1 << 16;

    private final SpillFile file;
    /** the batch's columns kept, in the tape's order */
    private final int[] columns;
    /** per kept column: -1, its difference from the row before; else the kept column of the same row it is taken from */
    private final int[] base;
    private final ByteBuffer out = ByteBuffer.allocate(BUFFER);
    private final long[] prev;
    private final long[] row;
    private long rows;
    private volatile boolean complete;
    private boolean failed;

    /**
     * @param prefix  the temporary file's name prefix
     * @param columns the columns of the reading query's batches to keep, in the order a cursor gives them
     * @param base    for each kept column, -1 or the index of an earlier kept column it is stored as a difference from
     */
    RowTape(String prefix, int[] columns, int[] base) {
        if (columns.length != base.length || columns.length > 62) throw new IllegalArgumentException("columns");
        for (int k = 0; k < base.length; k++) {
            if (base[k] >= k) throw new IllegalArgumentException("a column's base must come before it");
        }
        this.file = new SpillFile(prefix);
        this.columns = columns.clone();
        this.base = base.clone();
        this.prev = new long[columns.length];
        this.row = new long[columns.length];
    }

    /** Whether the rows of the whole table, in storage order, were written (and nothing failed). */
    boolean complete() {
        return complete && !failed;
    }

    long rows() {
        return rows;
    }

    /** Keeps a batch of rows: the reading thread's columns and NULL flags. */
    void append(long[][] longs, boolean[][] nulls, int size) {
        if (failed) return;
        int n = columns.length;
        try {
            for (int i = 0; i < size; i++) {
                if (out.remaining() < (n + 1) * 10) flush();
                long flags = 0;
                for (int k = 0; k < n; k++) {
                    if (nulls[columns[k]][i]) flags |= 1L << k;
                }
                Varint.put(out, flags);
                for (int k = 0; k < n; k++) {
                    long v = longs[columns[k]][i];
                    row[k] = v;
                    Varint.put(out, zigzag(v - (base[k] < 0 ? prev[k] : row[base[k]])));
                    prev[k] = v;
                }
            }
            rows += size;
        } catch (IOException e) {
            failed = true; // the later pass reads the table instead
        }
    }

    /** The table was read to its end in storage order: the tape may serve. */
    void finish() {
        if (failed) return;
        try {
            flush();
            complete = true;
        } catch (IOException e) {
            failed = true;
        }
    }

    private void flush() throws IOException {
        out.flip();
        file.append(out);
        out.clear();
    }

    /** The rows, column {@code k} the {@code k}-th kept column; only once {@link #complete}. */
    Cursor cursor() {
        if (!complete()) throw new IllegalStateException("the tape is not complete");
        return new Cursor();
    }

    /** The tape's rows as a forward-only cursor over its kept columns. */
    class Cursor extends RowCursor {
        private final SpillFile.Reader in = file.reader(0, file.size(), BUFFER);
        private final long[] values = new long[columns.length];
        private long left = rows;
        private long flags;

        @Override
        public boolean next() throws SQLException {
            if (left == 0) return false;
            left--;
            try {
                flags = in.getVar();
                for (int k = 0; k < values.length; k++) {
                    long d = unzigzag(in.getVar());
                    values[k] = base[k] < 0 ? values[k] + d : values[base[k]] + d;
                }
            } catch (IOException e) {
                throw new SQLException("cannot read back the rows kept in a temporary file: " + e.getMessage(), e);
            }
            return true;
        }

        @Override
        public long getLong(int column) {
            return values[column];
        }

        @Override
        public int getInt(int column) {
            return (int) values[column];
        }

        @Override
        public String getString(int column) throws SQLException {
            throw new SQLException("a row tape holds no text");
        }

        @Override
        public boolean isNull(int column) {
            return (flags & 1L << column) != 0;
        }

        @Override
        public void close() throws SQLException {
            // nothing held but the buffer
        }
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
