package dlproflint.extract.nsys;

import dlproflint.extract.common.RowCursor;

import java.sql.SQLException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * NVTX_EVENTS' ranges and marks in (process, start, end descending) order, in batches of columns, for the evidence
 * pass. Read beside the pass when a second connection is at hand ({@link Beside}): the pass is the longest of the
 * reader's, its time split between SQLite's stepping and the native calls that fetch each column (one core) and what
 * the pass makes of each row (the other), so one thread reads ahead while the other parses. Rows come in the storage
 * order when it is already the one needed, else sorted by SQLite ({@link OrderedScan}: the first row out of order
 * ends the read with {@link OrderedScan.OutOfOrder}, thrown where the batches are taken).
 */
abstract class NvtxRows implements AutoCloseable {
    static final int BATCH = 2048;

    /** One batch of rows, column by column. */
    static final class Batch {
        final long[] pid = new long[BATCH];
        final long[] start = new long[BATCH];
        final long[] end = new long[BATCH];
        final boolean[] noEnd = new boolean[BATCH];
        final long[] tid = new long[BATCH];
        final String[] text = new String[BATCH];
        final boolean[] registered = new boolean[BATCH];
        final long[] textId = new long[BATCH];
        final int[] type = new int[BATCH];
        int size;
        /** what ended the read, after the last batch */
        Exception failure;
        boolean last;
    }

    /** The next batch (empty and {@code last} at the end); a failure of the read is thrown here. */
    abstract Batch next() throws Exception;

    @Override
    public abstract void close();

    /**
     * The rows of {@code db}'s NVTX_EVENTS: read on {@code beside}'s connection and thread when given, else here.
     *
     * @return null when the export has no NVTX ranges to read
     */
    static NvtxRows open(NsysDatabase db, Beside beside) throws SQLException {
        if (!db.has("NVTX_EVENTS") || !db.hasColumn("NVTX_EVENTS", "start")) return null;
        return beside == null ? new Here(db) : new Ahead(beside);
    }

    /** Reads one batch from {@code rs}; false at the end of the rows. */
    private static boolean fill(Query q, Batch b) throws SQLException {
        b.size = 0;
        RowCursor rs = q.rs;
        while (b.size < BATCH) {
            if (!rs.next()) return false;
            int i = b.size++;
            long pid = rs.getLong(0);
            long start = rs.getLong(1);
            long end = rs.getLong(2);
            q.scan.check(pid, start, end);
            b.pid[i] = pid;
            b.start[i] = start;
            b.end[i] = end;
            b.noEnd[i] = end == 0 && rs.isNull(2);
            b.tid[i] = rs.getLong(3);
            String text = rs.getString(4);
            b.text[i] = text;
            boolean registered = text == null && !rs.isNull(5);
            b.registered[i] = registered;
            b.textId[i] = registered ? rs.getLong(5) : 0;
            b.type[i] = rs.getInt(6);
        }
        return true;
    }

    /** The query, as {@link OrderedScan} runs it on one connection. */
    private static final class Query implements AutoCloseable {
        final OrderedScan scan;
        final RowCursor rs;

        Query(NsysDatabase db) throws SQLException {
            String tid = db.col("NVTX_EVENTS", "globalTid", "0");
            String type = db.col("NVTX_EVENTS", "eventType", "59");
            String where = type + " IN (" + NvtxSpool.TYPE_MARK + ", " + NvtxScan.RANGE_TYPES + ")";
            String pid = NsysDatabase.pidOf(tid);
            scan = db.scan("NVTX_EVENTS", where, pid, "start", "end DESC");
            rs = scan.open("SELECT " + pid + ", start, end, " + tid + ", " + NvtxScan.textExpr(db) + ", " + type
                    + " FROM NVTX_EVENTS WHERE " + where);
        }

        @Override
        public void close() {
            try {
                rs.close();
            } catch (SQLException e) {
                // closing a finished read
            }
        }
    }

    /** Read on the caller's thread, a batch at a time. */
    private static final class Here extends NvtxRows {
        private final Query q;
        private final Batch b = new Batch();

        Here(NsysDatabase db) throws SQLException {
            q = new Query(db);
        }

        @Override
        Batch next() throws SQLException {
            b.last = !fill(q, b);
            return b;
        }

        @Override
        public void close() {
            q.close();
        }
    }

    /** Read on the pass beside's thread and connection, up to {@link #DEPTH} batches ahead of the caller. */
    private static final class Ahead extends NvtxRows {
        private static final int DEPTH = 8;
        private final BlockingQueue<Batch> full = new ArrayBlockingQueue<>(DEPTH);
        /** batches the caller is done with, for the reader to fill again */
        private final BlockingQueue<Batch> free = new ArrayBlockingQueue<>(DEPTH + 2);
        private final Future<Void> reader;
        private final Beside beside;
        private volatile boolean closed;
        private Batch current;

        Ahead(Beside beside) {
            this.beside = beside;
            for (int i = 0; i < DEPTH + 2; i++) free.add(new Batch());
            reader = beside.run(this::read);
        }

        private Void read() throws InterruptedException {
            Batch b = take(free);
            try (Query q = new Query(beside.db())) {
                while (b != null && fill(q, b)) {
                    put(b);
                    b = take(free);
                }
                if (b != null) {
                    b.last = true;
                    put(b);
                }
            } catch (Exception e) {
                if (b == null) b = new Batch();
                b.size = 0;
                b.failure = e;
                b.last = true;
                put(b);
            }
            return null;
        }

        /** A batch from {@code q}; null once the caller has closed (it takes nothing more). */
        private Batch take(BlockingQueue<Batch> q) throws InterruptedException {
            while (!closed) {
                Batch b = q.poll(100, TimeUnit.MILLISECONDS);
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
        Batch next() throws Exception {
            if (current != null) {
                current.last = false;
                current.failure = null;
                free.add(current);
            }
            while ((current = full.poll(100, TimeUnit.MILLISECONDS)) == null) {
                if (reader.isDone()) {
                    beside.join(reader); // the reader ended without a last batch: its failure, if any
                    throw new IllegalStateException("the NVTX read ended early");
                }
            }
            if (current.failure != null) throw current.failure;
            return current;
        }

        @Override
        public void close() {
            closed = true;
            try {
                beside.join(reader);
            } catch (Exception e) {
                // the read's failure was thrown where its batch was taken, or nobody wants its rows any more
            }
        }
    }
}
