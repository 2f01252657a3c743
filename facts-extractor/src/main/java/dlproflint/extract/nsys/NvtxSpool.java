package dlproflint.extract.nsys;

import static dlproflint.extract.nsys.Varint.unzigzag;
import static dlproflint.extract.nsys.Varint.zigzag;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;

/**
 * NVTX_EVENTS put in order once and shared by every pass that needs it (issue 25). The evidence pass reads the
 * table once, in storage order, and writes each range and mark here, with what it found in the range's text (data
 * loading, DALI, XLA); the spool gives them back in (process, start, end descending) order. The correlation pass and
 * the host's time per step read this file instead of asking SQLite to sort the table with its text (on an emit_nvtx
 * export, where nsys stores each push/pop range when it ends, such a sort cost more than the rest of the read).
 *
 * <p>Rows in that order extend their process's one run. A row out of order (an enclosing range stored after its
 * content) goes to the process's run whose last row is the greatest not after it, or begins a run: there are as many
 * runs as levels of nesting stored late, a few, and a reader merges them (patience sorting, in one pass over the table
 * and one over the file). A table further from order than {@link #MAX_RUNS} runs is sorted by SQLite instead.
 *
 * <p>A temporary file, not memory: a 10M-kernel export has ~10M ranges, which as Java objects or even packed
 * arrays would outweigh everything else the reader keeps. Each row is a few varint bytes (times as deltas from the
 * previous row of its run, which are small), plus its text when it has one; the host pass skips the text bytes
 * without decoding them. A run is written in blocks (its buffer each time it fills), which its reader follows.
 *
 * <p>A reader takes the rows in the spool's order (process, start, end descending) or merged across processes by
 * (start, end descending), as a sweep over all processes needs.
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

    /** every run's flushed blocks */
    private final SpillFile file = new SpillFile("dlprof-lint-nvtx");
    /**
     * Each process's runs, by their last row's key ascending: a run holds rows of one process in (start, end
     * descending) order. A table in that order fills one run a process; nsys's push/pop ranges, stored when they end,
     * put each enclosing range after its content, and each level of nesting then has a run of its own (a few).
     */
    private final Map<Long, List<Run>> runsByPid = new HashMap<>();
    /** every run, in the order they began */
    private final List<Run> runs = new ArrayList<>();
    private List<Run> lastRuns;
    private long lastPid = Long.MIN_VALUE;
    /** whether every row so far came after the previous one in (process, start, end descending) order */
    private boolean ordered = true;
    private long prevStart;
    private long prevEndKey;
    private long rows;
    private boolean open = true;

    /** At most this many runs: a table further from order than that is sorted by SQLite instead ({@link TooManyRuns}). */
    static final int MAX_RUNS = 256;
    private static final int RUN_BUFFER = 1 << 15;

    /** A row that would start a run past {@link #MAX_RUNS}: nothing of it was written. */
    static final class TooManyRuns extends Exception {
        TooManyRuns() {
            super("NVTX_EVENTS too far from (process, start) order to put in order here", null, false, false);
        }
    }

    /** One process's rows in (start, end descending) order, written to the file in blocks (its buffer's, when full). */
    private final class Run {
        final long pid;
        /** the order it began in: rows of equal keys are read from the earlier run first */
        final int index;
        final ByteBuffer out = ByteBuffer.allocate(RUN_BUFFER);
        /** {file offset, length} of each block flushed */
        final List<long[]> blocks = new ArrayList<>();
        long rows;
        long lastStart;
        long lastEndKey;
        long prevTid;

        Run(long pid, int index) {
            this.pid = pid;
            this.index = index;
        }

        void room(int n) throws IOException {
            if (out.remaining() < Math.min(n, out.capacity())) flush();
        }

        void flush() throws IOException {
            out.flip();
            if (out.hasRemaining()) block(out);
            out.clear();
        }

        void block(ByteBuffer b) throws IOException {
            int n = b.remaining();
            blocks.add(new long[] {file.append(b), n});
        }

        void putVar(long v) {
            Varint.put(out, v);
        }
    }

    /** The spool's file (null until a row was written). */
    Path file() {
        return file.path();
    }

    /** Bytes written so far (flushed or not). */
    long bytes() {
        long n = file.size();
        for (Run r : runs) n += r.out.position();
        return n;
    }

    /** Rows written so far. */
    long rows() {
        return rows;
    }

    /** Whether every row so far came in the spool's order, (process, start, end descending). */
    boolean ordered() {
        return ordered;
    }

    /** Runs written so far: one a process for rows added in order. */
    int runs() {
        return runs.size();
    }

    /** Forgets every row written (the evidence pass reads the table again, sorted). */
    void reset() throws IOException {
        file.reset();
        runs.clear();
        runsByPid.clear();
        lastRuns = null;
        lastPid = Long.MIN_VALUE;
        ordered = true;
        names.clear();
        rows = 0;
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
        try {
            add(pid, tid, start, end, noEnd, type, registered, textId, text == null ? null
                    : text.getBytes(StandardCharsets.UTF_8), category, parsed);
        } catch (TooManyRuns e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * As {@link #add(long, long, long, long, boolean, int, boolean, long, String, int, MarkerText)}, the text given as
     * its UTF-8 bytes, in any order: a row before the last one of its process in (start, end descending) order goes
     * to the process's run whose last row is the greatest not after it, or to a new run. A range whose text is its
     * name's parse and number spelt as PyTorch spells them ({@link MarkerText#canonical}) is kept without them: a
     * reader spells it again if asked for it.
     */
    void add(long pid, long tid, long start, long end, boolean noEnd, int type, boolean registered, long textId,
             byte[] text, int category, MarkerText parsed) throws IOException, TooManyRuns {
        add(pid, tid, start, end, noEnd, type, registered, textId, text, category, parsed, parsed == null ? -1 : parsed.seq);
    }

    /**
     * As {@link #add(long, long, long, long, boolean, int, boolean, long, byte[], int, MarkerText)}, the range's
     * number given ({@code parsed} may be its name's shared shape, {@link MarkerText#canonicalShape}).
     */
    void add(long pid, long tid, long start, long end, boolean noEnd, int type, boolean registered, long textId,
             byte[] text, int category, MarkerText parsed, long seq) throws IOException, TooManyRuns {
        if (!open) throw new IllegalStateException("spool closed");
        long endKey = noEnd ? 0 : end;
        if (pid != lastPid || lastRuns == null) {
            if (rows > 0 && pid < lastPid) ordered = false;
            lastRuns = runsByPid.computeIfAbsent(pid, k -> new ArrayList<>());
            lastPid = pid;
        } else if (compare(prevStart, prevEndKey, start, endKey) > 0) {
            ordered = false;
        }
        prevStart = start;
        prevEndKey = endKey;
        Run run = runFor(pid, start, endKey);
        long prevRunStart = run.rows == 0 ? 0 : run.lastStart;
        run.lastStart = start;
        run.lastEndKey = endKey;
        int typeCode = type == TYPE_MARK ? 0 : type == TYPE_PUSH_POP ? 1 : type == TYPE_START_END ? 2 : 3;
        int nameId = text == null || registered ? -1 : nameId(parsed);
        boolean spelt = nameId >= 0 && parsed.canonical();
        byte[] bytes = spelt ? null : text;
        int flags = (noEnd ? NO_END : 0) | (registered ? REGISTERED : 0) | (bytes != null ? HAS_TEXT : 0)
                | (category & CATEGORY_BITS) << CATEGORY_SHIFT | typeCode << TYPE_SHIFT | (nameId >= 0 ? NAMED : 0)
                | (spelt ? CANONICAL : 0);
        run.room(10 * 6 + (bytes == null ? 0 : bytes.length));
        run.putVar(flags);
        if (typeCode == 3) run.putVar(zigzag(type));
        run.putVar(zigzag(tid - run.prevTid));
        run.putVar(zigzag(start - prevRunStart));
        if (!noEnd) run.putVar(zigzag(end - start));
        if (registered) run.putVar(zigzag(textId));
        if (bytes != null) {
            run.putVar(bytes.length);
            if (bytes.length > run.out.remaining()) {
                run.flush();
                run.block(ByteBuffer.wrap(bytes));
            } else {
                run.out.put(bytes);
            }
        }
        if (nameId >= 0) {
            run.room(20);
            run.putVar(nameId);
            run.putVar(zigzag(seq));
        }
        run.prevTid = tid;
        run.rows++;
        rows++;
    }

    /**
     * The run of the current process a row of this key goes to: the one whose last row is the greatest not after it
     * (the runs' last rows stay in ascending order), or a new first run when every run's last row is after it.
     */
    private Run runFor(long pid, long start, long endKey) throws TooManyRuns {
        List<Run> own = lastRuns;
        int n = own.size();
        // most rows extend the process's last run
        if (n > 0 && compare(own.get(n - 1).lastStart, own.get(n - 1).lastEndKey, start, endKey) <= 0) return own.get(n - 1);
        int lo = 0;
        int hi = n - 2;
        while (lo <= hi) { // the last run whose last row is not after the key
            int mid = (lo + hi) >>> 1;
            Run r = own.get(mid);
            if (compare(r.lastStart, r.lastEndKey, start, endKey) <= 0) lo = mid + 1;
            else hi = mid - 1;
        }
        // it takes the row's key as its last: still below the next run's, so the order of the runs holds
        if (hi >= 0) return own.get(hi);
        if (runs.size() >= MAX_RUNS) throw new TooManyRuns();
        Run r = new Run(pid, runs.size());
        runs.add(r);
        own.add(0, r);
        return r;
    }

    /** (start, end descending), ends as keys (0 without one). */
    private static int compare(long start1, long endKey1, long start2, long endKey2) {
        int c = Long.compare(start1, start2);
        return c != 0 ? c : Long.compare(endKey2, endKey1);
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
        for (Run r : runs) r.flush();
    }

    @Override
    public void close() throws IOException {
        open = false;
        file.close();
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
         * The sequence number of the range {@link #marker} read as {@code m}: a canonical range's is the row's (its
         * marker is the shape all of its name share, {@link MarkerText#canonicalShape}), another's its parse's.
         */
        long seqOf(MarkerText m) {
            return canonical() ? seq : m.seq;
        }

        /**
         * What its text reads as: made from its name's parse where the row has one (an emit_nvtx op range), else
         * parsed by {@code parser}; its flags are the evidence pass's ({@link #category}). A canonical range's is the
         * shape every range of its name and flags shares: its number is {@link #seqOf}, its text not to be asked of it
         * ({@link MarkerText#withSeq} makes the range's own).
         */
        MarkerText marker(MarkerText.Parser parser) throws java.sql.SQLException {
            // one shared object a name and classification: the number is the row's ({@link #seqOf})
            if (canonical()) return named.canonicalShape(category());
            MarkerText m;
            if (named != null) {
                // a named row is an ATEN op range: named by its name's parse, never by its text
                String text = text();
                m = MarkerText.ofNamed(named, text, text, false, seq);
            } else {
                // by its bytes: a text the parser met already is not decoded again
                m = parser.parse(textLength < 0 ? null : textBytes, Math.max(0, textLength), registered, textId);
            }
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
        List<Run> byPid = new ArrayList<>(runs);
        byPid.sort(java.util.Comparator.comparingLong((Run r) -> r.pid).thenComparingInt(r -> r.index));
        // one run a process: one after the other
        return runsByPid.size() == runs.size() ? new Sequential(byPid) : new Merged(true);
    }

    /** A reader of the rows of every process merged by (start, end descending), as one sweep over all of them. */
    Reader byStart() {
        return runs.size() <= 1 ? new Sequential(runs) : new Merged(false);
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

    /** One run's rows, from its blocks. */
    private final class Cursor {
        private final SpillFile.Reader in;
        private long left;
        private final long pid;
        final int index;
        private long prevStart;
        private long prevTid;
        final Row row = new Row();

        Cursor(Run run, int buffer) {
            pid = run.pid;
            index = run.index;
            left = run.rows;
            in = file.reader(run.blocks, buffer);
        }

        /** Reads the next row into {@link #row}; false at the run's end. */
        boolean advance() throws IOException {
            if (left == 0) return false;
            left--;
            int flags = (int) in.getVar();
            Row r = row;
            r.pid = pid;
            r.flags = flags;
            int typeCode = (flags >>> TYPE_SHIFT) & 3;
            r.type = typeCode == 0 ? TYPE_MARK : typeCode == 1 ? TYPE_PUSH_POP : typeCode == 2 ? TYPE_START_END
                    : (int) unzigzag(in.getVar());
            r.tid = prevTid += unzigzag(in.getVar());
            r.start = prevStart += unzigzag(in.getVar());
            r.noEnd = (flags & NO_END) != 0;
            r.end = r.noEnd ? 0 : r.start + unzigzag(in.getVar());
            r.registered = (flags & REGISTERED) != 0;
            r.textId = r.registered ? unzigzag(in.getVar()) : 0;
            if ((flags & HAS_TEXT) != 0) {
                int n = (int) in.getVar();
                if (r.textBytes.length < n) r.textBytes = new byte[Math.max(n, r.textBytes.length * 2)];
                in.get(r.textBytes, 0, n);
                r.textLength = n;
            } else {
                r.textLength = -1;
            }
            if ((flags & NAMED) != 0) {
                r.named = names.get((int) in.getVar());
                r.seq = unzigzag(in.getVar());
            } else {
                r.named = null;
            }
            return true;
        }
    }

    /** Runs one after the other. */
    private final class Sequential extends Reader {
        private final List<Run> order;
        private int run = -1;
        private Cursor cursor;

        Sequential(List<Run> order) {
            this.order = order;
        }

        @Override
        Row read() throws IOException {
            while (true) {
                if (cursor != null && cursor.advance()) return cursor.row;
                if (++run >= order.size()) return null;
                cursor = new Cursor(order.get(run), 1 << 16);
            }
        }
    }

    /**
     * The runs' rows merged by (process, start, end descending) or by (start, end descending) across processes; a row
     * without an end sorts as ending at 0, and rows of equal keys by run (the one begun first first).
     * The cursor just read goes on while its next row still comes before the first of the others (one comparison, no
     * search): most rows are in the first run, in order. Only when it does not are the others searched for the
     * first, one by one: there are mostly a few runs (one a level of nesting nsys stored late), where a heap's
     * bookkeeping costs more than the comparisons it saves; past {@link #FEW} runs a heap holds the others.
     */
    private final class Merged extends Reader {
        /** At most this many runs are searched one by one; more are kept in a heap. */
        static final int FEW = 16;
        private final boolean byProcess;
        /** the live runs other than {@link #last}, first on top, where there are more than {@link #FEW}; else null */
        private java.util.PriorityQueue<Cursor> heap;
        /** the runs with rows left, the one read last ({@link #last}) among them */
        private Cursor[] live;
        private int count;
        private Cursor last;
        /** the first of the live runs other than {@link #last} (null: none) */
        private Cursor next;
        private boolean started;

        Merged(boolean byProcess) {
            this.byProcess = byProcess;
        }

        /** Whether {@code a}'s row comes before {@code b}'s. */
        private boolean before(Cursor a, Cursor b) {
            Row x = a.row;
            Row y = b.row;
            if (byProcess && x.pid != y.pid) return x.pid < y.pid;
            if (x.start != y.start) return x.start < y.start;
            long ex = x.noEnd ? 0 : x.end;
            long ey = y.noEnd ? 0 : y.end;
            if (ex != ey) return ex > ey;
            return a.index < b.index;
        }

        /** The first live run other than {@code except} (null: none). */
        private Cursor firstBut(Cursor except) {
            Cursor best = null;
            for (int i = 0; i < count; i++) {
                Cursor c = live[i];
                if (c != except && (best == null || before(c, best))) best = c;
            }
            return best;
        }

        private void remove(Cursor c) {
            for (int i = 0; i < count; i++) {
                if (live[i] == c) {
                    live[i] = live[--count];
                    live[count] = null;
                    return;
                }
            }
        }

        @Override
        Row read() throws IOException {
            if (!started) {
                started = true;
                // many runs: smaller buffers each
                int buffer = runs.size() > FEW ? 1 << 13 : 1 << 16;
                live = new Cursor[runs.size()];
                for (Run r : runs) {
                    Cursor c = new Cursor(r, buffer);
                    if (c.advance()) live[count++] = c;
                }
                if (count > FEW) {
                    heap = new java.util.PriorityQueue<>(count, (a, b) -> a == b ? 0 : before(a, b) ? -1 : 1);
                    for (int i = 0; i < count; i++) heap.add(live[i]);
                    last = heap.poll();
                    return last == null ? null : last.row;
                }
                last = firstBut(null);
                next = firstBut(last);
                return last == null ? null : last.row;
            }
            if (last == null) return null;
            if (heap != null) return fromHeap();
            if (last.advance()) {
                if (next == null || before(last, next)) return last.row;
            } else {
                remove(last);
            }
            last = next;
            if (last != null) next = firstBut(last);
            return last == null ? null : last.row;
        }

        private Row fromHeap() throws IOException {
            if (last.advance()) {
                Cursor top = heap.peek();
                if (top == null || before(last, top)) return last.row;
                heap.add(last);
            }
            last = heap.poll();
            return last == null ? null : last.row;
        }
    }
}
