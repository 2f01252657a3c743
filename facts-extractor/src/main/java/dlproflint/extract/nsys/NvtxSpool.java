package dlproflint.extract.nsys;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * NVTX_EVENTS put in order once and shared by every pass that needs it (issue 25). The evidence pass reads the
 * table once in (process, start, end descending) order - in storage order when nsys stored it so, else sorted by
 * SQLite - and writes each range and mark here, with what it found in the range's text (data loading, DALI, XLA).
 * The correlation pass and the host's time per step then read this file instead of asking SQLite to sort the table
 * with its text again (twice: on an emit_nvtx export, where nsys stores each range when it ends, each of those
 * sorts cost as much as the first).
 *
 * <p>A temporary file, not memory: a 10M-kernel export has ~10M ranges, which as Java objects or even packed
 * arrays would outweigh everything else the reader keeps. Each row is a few varint bytes (times as deltas from the
 * previous row of its process, which in start order are small), plus its text when it has one; the host pass skips
 * the text bytes without decoding them.
 *
 * <p>Rows are grouped by process ({@link #segments}); a reader takes them in the spool's order (process, start,
 * end descending) or merged across processes by (start, end descending), as a sweep over all processes needs.
 */
final class NvtxSpool implements AutoCloseable {
    static final int TYPE_MARK = 34;
    static final int TYPE_PUSH_POP = 59;
    static final int TYPE_START_END = 60;

    /** flags of a row */
    private static final int NO_END = 1;
    private static final int REGISTERED = 2;
    private static final int HAS_TEXT = 4;
    /** bits 3-5: the text's {@link MarkerText#flags} as they are (data loading, DALI, XLA) */
    private static final int CATEGORY_SHIFT = 3;
    private static final int CATEGORY_BITS = MarkerText.DATALOADER | MarkerText.DALI | MarkerText.XLA;
    /** type bits 7-8: 0 mark, 1 push/pop, 2 start/end, 3 other (its type follows) */
    private static final int TYPE_SHIFT = 7;
    /** an emit_nvtx op range: its name's parse (an index into {@link #names}) and sequence number follow */
    private static final int NAMED = 1 << 9;
    /** a NAMED range whose text is its name and number spelt as PyTorch spells them: stored without its text */
    private static final int CANONICAL = 1 << 10;
    /** At most this many name parses are held; a range of another name is stored without its parse. */
    static final int MAX_NAMES = 1 << 16;

    /**
     * The op names' parses of the emit_nvtx ranges written ({@link MarkerText#named}): a pass reading the rows makes each
     * range's {@link MarkerText} from its name's parse and sequence number instead of parsing its text again.
     */
    private final List<MarkerText> names = new ArrayList<>();

    private Path file;
    private FileChannel channel;
    private final ByteBuffer out = ByteBuffer.allocate(1 << 16);
    private long written;
    private final List<long[]> segments = new ArrayList<>(); // {pid, offset}
    private long rows;
    private boolean open = true;
    private long prevPid = Long.MIN_VALUE;
    private long prevStart;
    private long prevTid;

    /** The spool's file (null until a row was written). */
    Path file() {
        return file;
    }

    /** Bytes written so far (flushed or not). */
    long bytes() {
        return written + out.position();
    }

    /** Rows written so far. */
    long rows() {
        return rows;
    }

    /** Forgets every row written (the evidence pass reads the table again, sorted). */
    void reset() throws IOException {
        if (channel != null) channel.truncate(0).position(0);
        out.clear();
        written = 0;
        segments.clear();
        names.clear();
        rows = 0;
        prevPid = Long.MIN_VALUE;
    }

    /**
     * Appends one NVTX event, in (pid, start, end descending) order.
     *
     * @param end      the end as recorded ({@code noEnd}: NULL, a range never closed or a mark)
     * @param textId   the registered string's id, when {@code registered}
     * @param text     the event's own text (null when it has none or it is registered)
     * @param category {@link MarkerText#flags} of the text it reads as (0 for a mark)
     */
    void add(long pid, long tid, long start, long end, boolean noEnd, int type, boolean registered, long textId,
             String text, int category) throws IOException {
        add(pid, tid, start, end, noEnd, type, registered, textId, text, category, null);
    }

    /**
     * As {@link #add(long, long, long, long, boolean, int, boolean, long, String, int)}, with what the text parsed as
     * ({@code parsed}, may be null): an emit_nvtx op range's name parse and number are kept with it.
     */
    void add(long pid, long tid, long start, long end, boolean noEnd, int type, boolean registered, long textId,
             String text, int category, MarkerText parsed) throws IOException {
        add(pid, tid, start, end, noEnd, type, registered, textId, text == null ? null : text.getBytes(StandardCharsets.UTF_8),
                category, parsed);
    }

    /**
     * As {@link #add(long, long, long, long, boolean, int, boolean, long, String, int, MarkerText)}, the text given as
     * its UTF-8 bytes. A range whose text is its name's parse and number spelt as PyTorch spells them
     * ({@link MarkerText#canonical}) is kept without them: a reader spells it again if asked for it.
     */
    void add(long pid, long tid, long start, long end, boolean noEnd, int type, boolean registered, long textId,
             byte[] text, int category, MarkerText parsed) throws IOException {
        if (!open) throw new IllegalStateException("spool closed");
        if (pid != prevPid || segments.isEmpty()) {
            segments.add(new long[] {pid, written + out.position()});
            prevPid = pid;
            prevStart = 0;
            prevTid = 0;
        }
        int typeCode = type == TYPE_MARK ? 0 : type == TYPE_PUSH_POP ? 1 : type == TYPE_START_END ? 2 : 3;
        int nameId = text == null || registered ? -1 : nameId(parsed);
        boolean spelt = nameId >= 0 && parsed.canonical();
        byte[] bytes = spelt ? null : text;
        int flags = (noEnd ? NO_END : 0) | (registered ? REGISTERED : 0) | (bytes != null ? HAS_TEXT : 0)
                | (category & CATEGORY_BITS) << CATEGORY_SHIFT | typeCode << TYPE_SHIFT | (nameId >= 0 ? NAMED : 0)
                | (spelt ? CANONICAL : 0);
        room(10 * 6 + (bytes == null ? 0 : bytes.length));
        putVar(flags);
        if (typeCode == 3) putVar(zigzag(type));
        putVar(zigzag(tid - prevTid));
        putVar(zigzag(start - prevStart));
        if (!noEnd) putVar(zigzag(end - start));
        if (registered) putVar(zigzag(textId));
        if (bytes != null) {
            putVar(bytes.length);
            if (bytes.length > out.remaining()) {
                flush();
                write(ByteBuffer.wrap(bytes));
            } else {
                out.put(bytes);
            }
        }
        if (nameId >= 0) {
            room(20);
            putVar(nameId);
            putVar(zigzag(parsed.seq));
        }
        prevTid = tid;
        prevStart = start;
        rows++;
    }

    /** The index of an emit_nvtx op range's name parse, held from now on; -1 for another text or past the bound. */
    private int nameId(MarkerText parsed) {
        if (parsed == null || parsed.kind != MarkerText.Kind.ATEN || parsed.named == null) return -1;
        MarkerText named = parsed.named;
        if (named.spoolId < 0 || named.spoolId >= names.size() || names.get(named.spoolId) != named) {
            if (names.size() >= MAX_NAMES) return -1;
            named.spoolId = names.size();
            names.add(named);
        }
        return named.spoolId;
    }

    /** Ends writing: what was added is read from here on. */
    void finish() throws IOException {
        flush();
    }

    private void room(int n) throws IOException {
        if (out.remaining() < Math.min(n, out.capacity())) flush();
    }

    private void flush() throws IOException {
        out.flip();
        if (out.hasRemaining()) write(out);
        out.clear();
    }

    private void write(ByteBuffer b) throws IOException {
        if (channel == null) {
            file = Files.createTempFile("dlprof-lint-nvtx", ".spool");
            // DELETE_ON_CLOSE: on Linux the name is removed at once (the open channel keeps the data), so not even a
            // run killed with SIGKILL leaves the file behind
            channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.DELETE_ON_CLOSE);
        }
        while (b.hasRemaining()) written += channel.write(b, written);
    }

    private void putVar(long v) {
        while ((v & ~0x7FL) != 0) {
            out.put((byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.put((byte) v);
    }

    private static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    private static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }

    @Override
    public void close() throws IOException {
        open = false;
        if (channel != null) {
            channel.close(); // deletes the file
            channel = null;
        }
        if (file != null) Files.deleteIfExists(file);
    }

    // ---- reading -----------------------------------------------------------------------------------------------

    /** One event as read back (a reused object: the caller copies what it keeps). */
    static final class Row {
        long pid;
        long tid;
        long start;
        /** the end as recorded; meaningless when {@link #noEnd} */
        long end;
        boolean noEnd;
        int type;
        boolean registered;
        long textId;
        /** the text's UTF-8 bytes in {@link #textBytes}, length {@link #textLength}; -1 without text */
        int textLength = -1;
        byte[] textBytes = new byte[256];
        int flags;
        /** an emit_nvtx op range's name parse (null for other rows) and its sequence number */
        MarkerText named;
        long seq;

        /** The event's own text (null when it has none: registered, or no text at all). */
        String text() {
            if (canonical()) return MarkerText.canonicalText(named.name, seq);
            return textLength < 0 ? null : new String(textBytes, 0, textLength, StandardCharsets.UTF_8);
        }

        /** Whether the text is its name's parse and number as PyTorch spells them (not stored: {@link #text} spells it). */
        boolean canonical() {
            return (flags & CANONICAL) != 0;
        }

        /**
         * What its text reads as: made from its name's parse where the row has one (an emit_nvtx op range), else
         * parsed by {@code parser}; its flags are the evidence pass's ({@link #category}).
         */
        MarkerText marker(MarkerText.Parser parser) throws java.sql.SQLException {
            if (canonical()) return MarkerText.ofCanonical(named, seq).withFlags(category());
            String text = text();
            // a named row is an ATEN op range: named by its name's parse, never by its text
            MarkerText m = named != null ? MarkerText.ofNamed(named, text, text, false, seq) : parser.parse(text, registered, textId);
            return registered ? m : m.withFlags(category());
        }

        /** {@link MarkerText#flags} of its text, as the evidence pass found them. */
        int category() {
            return flags >>> CATEGORY_SHIFT & CATEGORY_BITS;
        }

        boolean isRange() {
            return type == TYPE_PUSH_POP || type == TYPE_START_END;
        }
    }

    /** A reader of the rows in the spool's order: process by process, each by (start, end descending). */
    Reader inOrder() {
        return new Sequential();
    }

    /** A reader of the rows of every process merged by (start, end descending), as one sweep over all of them. */
    Reader byStart() {
        return segments.size() <= 1 ? new Sequential() : new Merged();
    }

    /**
     * Reads rows one after the other; {@link #next} returns null at the end. The passes that read the spool are SQL
     * passes: a failure of the file reads as theirs do.
     */
    abstract static class Reader implements AutoCloseable {
        final Row next() throws java.sql.SQLException {
            try {
                return read();
            } catch (IOException e) {
                throw new java.sql.SQLException("cannot read the NVTX spool: " + e.getMessage(), e);
            }
        }

        abstract Row read() throws IOException;

        @Override
        public void close() {
        }
    }

    /** One process's rows, from its offset to the next segment's. */
    private final class Cursor {
        private final ByteBuffer in = ByteBuffer.allocate(1 << 16);
        private long position;
        private final long limit;
        private final long pid;
        private long prevStart;
        private long prevTid;
        final Row row = new Row();

        Cursor(int segment) {
            pid = segments.get(segment)[0];
            position = segments.get(segment)[1];
            limit = segment + 1 < segments.size() ? segments.get(segment + 1)[1] : written;
            in.limit(0);
        }

        /** Reads the next row into {@link #row}; false at the segment's end. */
        boolean advance() throws IOException {
            if (!in.hasRemaining() && position >= limit) return false;
            int flags = (int) getVar();
            Row r = row;
            r.pid = pid;
            r.flags = flags;
            int typeCode = (flags >>> TYPE_SHIFT) & 3;
            r.type = typeCode == 0 ? TYPE_MARK : typeCode == 1 ? TYPE_PUSH_POP : typeCode == 2 ? TYPE_START_END
                    : (int) unzigzag(getVar());
            r.tid = prevTid += unzigzag(getVar());
            r.start = prevStart += unzigzag(getVar());
            r.noEnd = (flags & NO_END) != 0;
            r.end = r.noEnd ? 0 : r.start + unzigzag(getVar());
            r.registered = (flags & REGISTERED) != 0;
            r.textId = r.registered ? unzigzag(getVar()) : 0;
            if ((flags & HAS_TEXT) != 0) {
                int n = (int) getVar();
                if (r.textBytes.length < n) r.textBytes = new byte[Math.max(n, r.textBytes.length * 2)];
                int done = 0;
                while (done < n) {
                    fill();
                    int k = Math.min(n - done, in.remaining());
                    in.get(r.textBytes, done, k);
                    done += k;
                }
                r.textLength = n;
            } else {
                r.textLength = -1;
            }
            if ((flags & NAMED) != 0) {
                r.named = names.get((int) getVar());
                r.seq = unzigzag(getVar());
            } else {
                r.named = null;
            }
            return true;
        }

        private long getVar() throws IOException {
            long v = 0;
            for (int shift = 0; ; shift += 7) {
                fill();
                byte b = in.get();
                v |= (long) (b & 0x7F) << shift;
                if (b >= 0) return v;
            }
        }

        private void fill() throws IOException {
            if (in.hasRemaining()) return;
            in.clear();
            in.limit((int) Math.min(in.capacity(), limit - position));
            while (in.hasRemaining()) {
                int n = channel.read(in, position + in.position());
                if (n < 0) throw new IOException("NVTX spool ended early");
            }
            position += in.limit();
            in.flip();
            if (!in.hasRemaining()) throw new IOException("NVTX spool ended early");
        }
    }

    private final class Sequential extends Reader {
        private int segment = -1;
        private Cursor cursor;

        @Override
        Row read() throws IOException {
            while (true) {
                if (cursor != null && cursor.advance()) return cursor.row;
                if (++segment >= segments.size()) return null;
                cursor = new Cursor(segment);
            }
        }
    }

    /** The processes' rows merged by (start, end descending); a row without an end sorts as ending at 0. */
    private final class Merged extends Reader {
        private final PriorityQueue<Cursor> heap = new PriorityQueue<>((a, b) -> {
            int c = Long.compare(a.row.start, b.row.start);
            return c != 0 ? c : Long.compare(endKey(b.row), endKey(a.row));
        });
        private Cursor last;
        private boolean started;

        private static long endKey(Row r) {
            return r.noEnd ? 0 : r.end;
        }

        @Override
        Row read() throws IOException {
            if (!started) {
                started = true;
                for (int s = 0; s < segments.size(); s++) {
                    Cursor c = new Cursor(s);
                    if (c.advance()) heap.add(c);
                }
            }
            if (last != null && last.advance()) heap.add(last);
            last = heap.poll();
            return last == null ? null : last.row;
        }
    }
}
