package dlproflint.extract.nsys;

import dlproflint.extract.ProfileException;
import dlproflint.extract.common.TableFileScan;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

/**
 * The profile's end: the last time any CPU or GPU table records (DLProf's wall clock runs from time 0 to it).
 *
 * <p>The correlation pass reads the kernel, copy, memset and runtime tables whole, and notes the largest time it
 * reads in each ({@link CorrelationPass#tableEnds}); nothing before that pass needs the end but a range never
 * closed (rare), and the iterations are decided without it ({@link dlproflint.extract.common.IterationDiscovery#decideOpenEnded}).
 * So only NVTX_EVENTS, whose marks and registrations no pass reads, is scanned for it, on a connection and thread of
 * its own beside the evidence pass. A scan of every large table for it, before the correlation pass, was a tenth of a
 * 1M-launch lint. A table the pass did not read whole from the file with integer times only (sorted by SQLite, or a
 * value stored as a real or a text, which SQL's {@code MAX} orders its own way) is scanned as before, and an unclosed
 * range asks for the whole end at once ({@link #get}).
 */
final class ProfileEnd implements AutoCloseable {
    /** The tables the correlation pass reads whole (the GPU tables and the runtime table). */
    static final List<String> PASS_TABLES = java.util.stream.Stream.concat(NsysDatabase.GPU_TABLES.stream(),
            java.util.stream.Stream.of("CUPTI_ACTIVITY_KIND_RUNTIME")).toList();

    private final NsysDatabase db;
    private final Beside thread;
    private final Future<Long> nvtxFuture;
    private long nvtx = -1;
    private long value = -1;
    private boolean closed;

    ProfileEnd(NsysDatabase of) throws ProfileException {
        this.db = of.sibling();
        this.thread = new Beside(db);
        this.nvtxFuture = thread.run(() -> of(db, List.of("NVTX_EVENTS")));
    }

    /** The end over every table, each scanned where not known yet (an unclosed range needs it before the pass). */
    long get() throws Exception {
        return after(Map.of());
    }

    /**
     * The end, from the largest time of each table the pass read whole ({@code readWhole}, by table), the others
     * scanned; the connection and thread are released then.
     */
    long after(Map<String, Long> readWhole) throws Exception {
        if (value >= 0) return value;
        try {
            long end = nvtx();
            List<String> rest = new ArrayList<>();
            for (String t : PASS_TABLES) {
                Long v = readWhole.get(t);
                if (v != null) end = Math.max(end, v);
                else rest.add(t);
            }
            value = Math.max(end, of(db, rest));
        } finally {
            close();
        }
        return value;
    }

    /** The end where already found (an unclosed range asked for it), else -1. */
    long known() {
        return value;
    }

    private long nvtx() throws Exception {
        if (nvtx < 0) nvtx = thread.join(nvtxFuture);
        return nvtx;
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        thread.close();
        db.close();
    }

    /**
     * The last time recorded in {@code tables} (0 without any); over the CPU and GPU tables, the profile's end
     * (DLProf's wall clock runs from time 0 to it).
     */
    static long of(NsysDatabase db, List<String> tables) throws SQLException {
        long end = 0;
        for (String t : tables) {
            if (!db.has(t) || !db.hasColumn(t, "start")) continue;
            // one scan per table: the last end, or the last start where ends are missing (marks, unclosed ranges)
            boolean ends = db.hasColumn(t, "end");
            // from the file where it can be read directly (the largest start or end is what the SQL below gives)
            Long direct = TableFileScan.maxInteger(db.connection(), t, ends ? List.of("start", "end") : List.of("start"),
                    db.deadline(), 0);
            String last = ends ? "MAX(MAX(COALESCE(end, start)), MAX(start))" : "MAX(start)";
            end = Math.max(end, direct != null ? direct : db.scalarLong("SELECT " + last + " FROM " + t, 0));
        }
        return end;
    }
}
