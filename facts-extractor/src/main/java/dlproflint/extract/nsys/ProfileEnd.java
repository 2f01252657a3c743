package dlproflint.extract.nsys;

import dlproflint.extract.common.RowCursor;
import dlproflint.extract.common.TableFileScan;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The profile's end: the last time any CPU or GPU table records (DLProf's wall clock runs from time 0 to it).
 *
 * <p>The passes read every table it is taken from whole: the evidence pass NVTX_EVENTS, the correlation pass the
 * kernel, copy, memset and runtime tables. Each notes the largest time it read in a table ({@link #readWhole}), and
 * the iterations are decided without the end ({@link dlproflint.extract.common.IterationDiscovery#decideOpenEnded}):
 * nothing scans a table for it. (A scan of every large table for it, beside the evidence pass, was a tenth of a
 * 1M-launch lint.) A table no pass read whole from the file with integer times only (sorted by SQLite, or a value
 * stored as a real or a text, which SQL's {@code MAX} orders its own way) is scanned as before when the end is asked
 * for; a range never closed asks for it during the evidence pass (rare), and the tables are scanned then.
 */
final class ProfileEnd {
    /** The tables the end is taken from. */
    static final List<String> TABLES = java.util.stream.Stream.concat(NsysDatabase.GPU_TABLES.stream(),
            NsysSqliteReader.CPU_TABLES.stream()).toList();

    private final NsysDatabase db;
    /** the largest time a pass read in each table it read whole, by table */
    private final Map<String, Long> read = new HashMap<>();
    private long value = -1;

    ProfileEnd(NsysDatabase db) {
        this.db = db;
    }

    /**
     * A pass read every row of {@code table} through {@code rows}, and {@code last} is the largest start or end it read
     * (0 at least). It counts where the rows came from the file with integer values only; else the table is scanned.
     */
    void readWhole(String table, long last, RowCursor rows) {
        if (rows.integersOnly()) read.put(table, last);
    }

    /** The end: the tables no pass has read whole are scanned for it (once; later notes change nothing). */
    long get() throws SQLException {
        if (value < 0) {
            long end = 0;
            for (String t : TABLES) {
                Long v = read.get(t);
                end = Math.max(end, v != null ? v : of(db, List.of(t)));
            }
            value = end;
        }
        return value;
    }

    /** The end where already found (an unclosed range asked for it), else -1. */
    long known() {
        return value;
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
