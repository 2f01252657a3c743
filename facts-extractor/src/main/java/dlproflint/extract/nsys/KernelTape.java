package dlproflint.extract.nsys;

import static dlproflint.extract.nsys.Varint.unzigzag;
import static dlproflint.extract.nsys.Varint.zigzag;

import dlproflint.extract.common.RowCursor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.SQLException;

/**
 * The kernel table's rows as the correlation pass read them, in storage order, kept for the GPU sweep (issue 25: one
 * read of every table). The sweep needs them by start, which is how nsys stores them; it read the table a second
 * time (a million rows: SQLite's stepping and seven native column fetches a row, its phase bound by that read). The
 * correlation pass's read-ahead thread, which has time to spare, writes the columns the sweep uses here as it reads
 * them ({@link AheadCursor}); the sweep reads them back ({@link #cursor}) as it read the table, the storage order
 * checked by start as before. The tape serves only a read that went to the end of the table in storage order; else
 * ({@link #complete} false, or the table sorted by SQLite) the sweep reads the table as before.
 *
 * <p>A temporary file, not memory: each row is a few varint bytes (deltas from the previous row), about 15 MB a
 * million kernels.
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

    private static final int START_NULL = 1;
    private static final int END_NULL = 2;
    private static final int NAME_NULL = 4;
    private static final int CORRELATION_NULL = 8;

    private final ByteBuffer out = ByteBuffer.allocate(1 << 16);
    private Path file;
    private FileChannel channel;
    private long written;
    private long rows;
    private volatile boolean complete;
    private boolean failed;
    private final long[] prev = new long[7];

    /** Whether the rows of the whole table, in storage order, were written (and nothing failed). */
    boolean complete() {
        return complete && !failed;
    }

    long rows() {
        return rows;
    }

    /** Keeps a batch of the correlation pass's kernel rows (its reading thread's columns and NULL flags). */
    void append(long[][] longs, boolean[][] nulls, int size) {
        if (failed) return;
        try {
            for (int i = 0; i < size; i++) {
                if (out.remaining() < 8 * 10) flush();
                int flags = (nulls[START][i] ? START_NULL : 0) | (nulls[END][i] ? END_NULL : 0)
                        | (nulls[SHORT_NAME][i] ? NAME_NULL : 0) | (nulls[CORRELATION][i] ? CORRELATION_NULL : 0);
                putVar(flags);
                long start = longs[START][i];
                putVar(zigzag(start - prev[START]));
                putVar(zigzag(longs[END][i] - start));
                putDelta(longs, DEVICE, i);
                putDelta(longs, SHORT_NAME, i);
                putDelta(longs, PID, i);
                putDelta(longs, CORRELATION, i);
                putDelta(longs, ROWID, i);
                prev[START] = start;
            }
            rows += size;
        } catch (IOException e) {
            failed = true; // the sweep reads the table instead
        }
    }

    /** The table was read to its end in storage order: the tape may serve the sweep. */
    void finish() {
        if (failed) return;
        try {
            flush();
            complete = true;
        } catch (IOException e) {
            failed = true;
        }
    }

    private void putDelta(long[][] longs, int column, int i) {
        long v = longs[column][i];
        putVar(zigzag(v - prev[column]));
        prev[column] = v;
    }

    private void putVar(long v) {
        Varint.put(out, v);
    }

    private void flush() throws IOException {
        out.flip();
        if (channel == null && out.hasRemaining()) {
            file = Files.createTempFile("dlprof-lint-kernels", ".tape");
            // removed at once on Linux (the open channel keeps the data): not even a killed run leaves it behind
            channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.DELETE_ON_CLOSE);
        }
        while (out.hasRemaining()) written += channel.write(out, written);
        out.clear();
    }

    /**
     * The rows as the GPU sweep's kernel query gives them: start, end, deviceId, shortName, globalPid, the demangled
     * name id (read by the row's id from {@code details}, once per name the sweep meets), correlationId.
     */
    RowCursor cursor(KernelDetails details) {
        return new Cursor(details);
    }

    private final class Cursor extends RowCursor {
        private final KernelDetails details;
        private final ByteBuffer in = ByteBuffer.allocate(1 << 16);
        private long position;
        private long left = rows;
        private int flags;
        private long start;
        private long end;
        private long device;
        private long name;
        private long pid;
        private long corr;
        private long rowid;

        Cursor(KernelDetails details) {
            this.details = details;
            in.limit(0);
        }

        @Override
        public boolean next() throws SQLException {
            if (left == 0) return false;
            left--;
            try {
                flags = (int) getVar();
                start += unzigzag(getVar());
                end = start + unzigzag(getVar());
                device += unzigzag(getVar());
                name += unzigzag(getVar());
                pid += unzigzag(getVar());
                corr += unzigzag(getVar());
                rowid += unzigzag(getVar());
            } catch (IOException e) {
                throw new SQLException("cannot read the kernel tape: " + e.getMessage(), e);
            }
            return true;
        }

        @Override
        public long getLong(int column) throws SQLException {
            return switch (column) {
                case 0 -> start;
                case 1 -> end;
                case 2 -> device;
                case 3 -> name;
                case 4 -> pid;
                case 5 -> details.of(rowid)[0];
                case 6 -> corr;
                default -> throw new SQLException("no column " + column + " in the kernel tape");
            };
        }

        @Override
        public int getInt(int column) throws SQLException {
            return (int) getLong(column);
        }

        @Override
        public String getString(int column) throws SQLException {
            throw new SQLException("the kernel tape has no text");
        }

        @Override
        public boolean isNull(int column) {
            return switch (column) {
                case 0 -> (flags & START_NULL) != 0;
                case 1 -> (flags & END_NULL) != 0;
                case 3 -> (flags & NAME_NULL) != 0;
                case 6 -> (flags & CORRELATION_NULL) != 0;
                default -> false;
            };
        }

        private long getVar() throws IOException {
            long v = 0;
            for (int shift = 0; ; shift += 7) {
                if (!in.hasRemaining()) fill();
                byte b = in.get();
                v |= (long) (b & 0x7F) << shift;
                if (b >= 0) return v;
            }
        }

        private void fill() throws IOException {
            in.clear();
            in.limit((int) Math.min(in.capacity(), written - position));
            if (!in.hasRemaining()) throw new IOException("the tape ended early");
            while (in.hasRemaining()) {
                if (channel.read(in, position + in.position()) < 0) throw new IOException("the tape ended early");
            }
            position += in.limit();
            in.flip();
        }

        @Override
        public void close() {
            details.close();
        }
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close(); // deletes the file
            channel = null;
        }
        if (file != null) Files.deleteIfExists(file);
    }
}
