package dlproflint.extract.nsys;

import dlproflint.extract.ProfileException;
import dlproflint.extract.common.TableFileScan;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Future;

/**
 * The profile's end (the last time any CPU or GPU table records), found on a connection and thread of its own while
 * the evidence pass reads NVTX_EVENTS: that pass needs it only for a range never closed, and the iterations are
 * decided after it. Finding it takes a scan of every large table (about 0.4 s of SQLite on a 1M-launch export, a third of
 * that where the tables are read from the file, {@link TableFileScan#maxInteger}); done
 * first, on both cores, it held up every pass; beside the evidence pass it takes the core that pass leaves idle
 * while SQLite sorts and the reader parses.
 */
final class ProfileEnd implements AutoCloseable {
    private final NsysDatabase db;
    private final Beside thread;
    private final Future<Long> end;
    private long value = -1;
    private boolean closed;

    ProfileEnd(NsysDatabase of) throws ProfileException {
        this.db = of.sibling();
        this.thread = new Beside(db);
        this.end = thread.run(() -> Math.max(of(db, NsysDatabase.GPU_TABLES), of(db, NsysSqliteReader.CPU_TABLES)));
    }

    /** The end, waiting for it the first time; the connection and thread are released then. */
    long get() throws Exception {
        if (value < 0) {
            try {
                value = thread.join(end);
            } finally {
                close();
            }
        }
        return value;
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
