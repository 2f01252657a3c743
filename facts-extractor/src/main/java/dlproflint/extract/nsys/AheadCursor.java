package dlproflint.extract.nsys;

import dlproflint.extract.common.RowCursor;

import java.sql.SQLException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A cursor whose rows are read on the second connection and its thread ({@link Beside}), in batches, up to
 * {@link #DEPTH} batches ahead of the caller. A long sweep's time is split between SQLite's stepping and the native
 * calls that fetch each column (what this moves to the other core) and what the pass makes of each row, so on two
 * cores the two halves overlap. Every column is fetched as a long (a NULL as 0, told apart by {@link #isNull}), the
 * text columns named as text instead. A failure of the read (an {@link OrderedScan.OutOfOrder} as well) is thrown
 * where the caller takes the rows.
 *
 * <p>The thread beside runs one task at a time: at most one such cursor may be open, and the caller must not wait
 * for another task of that thread while it is.
 */
final class AheadCursor extends RowCursor {
    static final int BATCH = 2048;
    static final int DEPTH = 8;

    private static final class Batch {
        final long[][] longs;
        final boolean[][] nulls;
        /** text columns as their UTF-8 bytes: the caller decodes what it needs (most NVTX texts never are) */
        final byte[][][] texts;
        int size;
        boolean last;
        Exception failure;

        Batch(int columns, boolean[] text) {
            longs = new long[columns][];
            nulls = new boolean[columns][BATCH];
            texts = new byte[columns][][];
            for (int c = 0; c < columns; c++) {
                if (text[c]) texts[c] = new byte[BATCH][];
                else longs[c] = new long[BATCH];
            }
        }
    }

    private final Beside beside;
    private final int columns;
    private final boolean[] text;
    private final BlockingQueue<Batch> full = new ArrayBlockingQueue<>(DEPTH);
    /** batches the caller is done with, for the reader to fill again */
    private final BlockingQueue<Batch> free = new ArrayBlockingQueue<>(DEPTH + 2);
    private final Future<Void> reader;
    private volatile boolean closed;
    /** the query was read to its end, every value given as an integer stored as one ({@link RowCursor#integersOnly}) */
    private volatile boolean integersOnly;
    private Batch current;
    private int row = -1;

    /** A table's rows in the order of a scan's keys, and the scan that checks each row's keys as the caller takes it. */
    record Ordered(OrderedScan scan, RowCursor rows) {
    }

    /**
     * The rows of {@code select} over {@code table} in the order of {@code keys}: read on {@code ahead}'s connection
     * and thread, ahead of the caller, or here on {@code db}'s where {@code ahead} is null. The scan is of the
     * connection that reads, so what it learns of the table's storage order is shared with every connection.
     *
     * @param columns     the number of columns {@code select} selects
     * @param textColumns those read as text
     */
    static Ordered ordered(NsysDatabase db, Beside ahead, String table, String where, String[] keys, String select,
                           int columns, int... textColumns) throws SQLException {
        return ordered(db, ahead, null, table, where, keys, select, columns, textColumns);
    }

    /**
     * As {@link #ordered(NsysDatabase, Beside, String, String, String[], String, int, int...)}, the rows kept on
     * {@code tape} as well (null: not kept) by the reading thread, where that is {@code ahead}'s.
     */
    static Ordered ordered(NsysDatabase db, Beside ahead, RowTape tape, String table, String where, String[] keys,
                           String select, int columns, int... textColumns) throws SQLException {
        OrderedScan scan = (ahead == null ? db : ahead.db()).scan(table, where, keys);
        return new Ordered(scan, ahead == null ? scan.open(select)
                : new AheadCursor(ahead, scan, tape, select, columns, textColumns));
    }

    /**
     * Runs {@code select} through {@code scan} (which must be of {@code beside}'s connection) beside the caller.
     *
     * @param columns     the number of columns the query selects
     * @param textColumns those read as text
     */
    AheadCursor(Beside beside, OrderedScan scan, String select, int columns, int... textColumns) {
        this(beside, scan, null, select, columns, textColumns);
    }

    /** @param tape keeps every row read, when not null: the whole table's only where it is read to its end */
    AheadCursor(Beside beside, OrderedScan scan, RowTape tape, String select, int columns, int... textColumns) {
        this.beside = beside;
        this.columns = columns;
        this.text = new boolean[columns];
        for (int c : textColumns) text[c] = true;
        for (int i = 0; i < DEPTH + 2; i++) free.add(new Batch(columns, text));
        reader = beside.run(() -> read(scan, select, tape));
    }

    private Void read(OrderedScan scan, String select, RowTape tape) throws InterruptedException {
        Batch b = take();
        try (RowCursor rs = scan.open(select)) {
            while (b != null && fill(rs, b)) {
                if (tape != null) tape.append(b.longs, b.nulls, b.size);
                put(b);
                b = take();
            }
            if (b != null) {
                // read to its end: whether it gave integers only is known (the caller learns it with the last batch)
                integersOnly = rs.integersOnly();
                if (tape != null) {
                    // the end of the table, read in the order the scan asked for: before the caller can see it
                    tape.append(b.longs, b.nulls, b.size);
                    if (scan.storageOrder()) tape.finish();
                }
                b.last = true;
                put(b);
            }
        } catch (Exception e) {
            if (b == null) b = new Batch(columns, text);
            b.size = 0;
            b.failure = e;
            b.last = true;
            put(b);
        }
        return null;
    }

    /** Reads up to a batch of rows; false at the end of the query. */
    private boolean fill(RowCursor rs, Batch b) throws SQLException {
        b.size = 0;
        while (b.size < BATCH) {
            if (!rs.next()) return false;
            int i = b.size++;
            for (int c = 0; c < columns; c++) {
                if (text[c]) {
                    byte[] s = rs.getUtf8(c);
                    b.texts[c][i] = s;
                    b.nulls[c][i] = s == null;
                } else {
                    long v = rs.getLong(c);
                    b.longs[c][i] = v;
                    b.nulls[c][i] = v == 0 && rs.isNull(c);
                }
            }
        }
        return true;
    }

    /** A free batch; null once the caller has closed (it takes nothing more). */
    private Batch take() throws InterruptedException {
        while (!closed) {
            Batch b = free.poll(100, TimeUnit.MILLISECONDS);
            if (b != null) return b;
        }
        return null;
    }

    private void put(Batch b) throws InterruptedException {
        while (!closed && !full.offer(b, 100, TimeUnit.MILLISECONDS)) {
            // the caller is behind: wait for room
        }
    }

    @Override
    public boolean next() throws SQLException {
        if (current != null && ++row < current.size) return true;
        while (true) {
            if (current != null) {
                if (current.last) return false;
                free.add(current);
            }
            current = nextBatch();
            row = 0;
            if (current.size > 0) return true;
        }
    }

    private Batch nextBatch() throws SQLException {
        try {
            Batch b;
            while ((b = full.poll(100, TimeUnit.MILLISECONDS)) == null) {
                if (reader.isDone()) {
                    beside.join(reader); // ended without a last batch: its failure, if any
                    throw new SQLException("the read beside ended early");
                }
            }
            if (b.failure != null) {
                Exception e = b.failure;
                b.failure = null;
                b.size = 0;
                current = b;
                if (e instanceof RuntimeException r) throw r;
                if (e instanceof SQLException s) throw s;
                throw new SQLException(e.getMessage(), e);
            }
            return b;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted", e);
        } catch (SQLException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new SQLException(e.getMessage(), e);
        }
    }

    @Override
    public long getLong(int column) {
        return current.longs[column][row];
    }

    @Override
    public int getInt(int column) {
        return (int) current.longs[column][row];
    }

    @Override
    public String getString(int column) {
        byte[] b = getUtf8(column);
        return b == null ? null : new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public byte[] getUtf8(int column) {
        if (!text[column]) throw new IllegalArgumentException("column " + column + " is not read as text");
        return current.texts[column][row];
    }

    /** Known once the last row has been taken; false before. */
    @Override
    public boolean integersOnly() {
        return integersOnly;
    }

    @Override
    public boolean isNull(int column) {
        return current.nulls[column][row];
    }

    @Override
    public void close() {
        closed = true;
        try {
            beside.join(reader);
        } catch (Exception e) {
            // its failure was thrown where the rows were taken, or nobody wants its rows any more
        }
    }
}
