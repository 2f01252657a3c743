package dlproflint.testing;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Timeline transformations of real profiles (issue 23), applied to copies: what a profile looks like when its
 * ranges touch, or when the GPU runs behind the host. They change timestamps only, never what ran or who launched
 * it, so a reader that attributes GPU work by launch must give the same ops, steps and figures.
 */
public final class TimelineVariants {
    private TimelineVariants() {
    }

    /**
     * Makes consecutive sibling NVTX push/pop ranges of every thread touch: the earlier one ends at the very
     * nanosecond the later one starts (as back-to-back {@code push/pop} pairs of a generated profile do). A pair is
     * moved only when no CUDA API call of the thread lies in the gap between them, so every call keeps its ranges;
     * starts stay where they were, so no range opens before what caused it (a backward op before its forward op).
     *
     * @return how many ranges were moved
     */
    public static int touchSiblingRanges(Path db) throws SQLException {
        int moved = 0;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.setAutoCommit(false);
            Map<Long, List<long[]>> byThread = new HashMap<>(); // rowid, start, end
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT rowid, start, end, globalTid FROM NVTX_EVENTS "
                    + "WHERE eventType = 59 AND start IS NOT NULL AND end IS NOT NULL ORDER BY globalTid, start, end DESC")) {
                while (rs.next()) byThread.computeIfAbsent(rs.getLong(4), t -> new ArrayList<>())
                        .add(new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)});
            }
            try (PreparedStatement upd = c.prepareStatement("UPDATE NVTX_EVENTS SET end = ? WHERE rowid = ?")) {
                for (Map.Entry<Long, List<long[]>> t : byThread.entrySet()) {
                    Calls calls = calls(c, t.getKey());
                    ArrayDeque<long[]> open = new ArrayDeque<>();
                    // the last range closed at each depth (index = depth of its parent + 1)
                    Map<Integer, long[]> lastClosed = new HashMap<>();
                    for (long[] r : t.getValue()) {
                        while (!open.isEmpty() && open.peek()[2] <= r[1]) {
                            long[] done = open.pop();
                            lastClosed.put(open.size(), done);
                            lastClosed.keySet().removeIf(d -> d > open.size());
                        }
                        long[] sibling = lastClosed.remove(open.size());
                        if (sibling != null && sibling[2] < r[1] && !calls.within(sibling[2], r[1])) {
                            upd.setLong(1, r[1]);
                            upd.setLong(2, sibling[0]);
                            upd.executeUpdate();
                            moved++;
                        }
                        open.push(r);
                    }
                }
            }
            c.commit();
        }
        return moved;
    }

    /** One thread's CUDA API calls: their starts, ascending, and the latest end among the calls up to each. */
    private record Calls(long[] starts, long[] maxEnd) {
        /** Whether a call overlaps the open gap {@code (from, to)}: one that starts before {@code to} and ends after {@code from}. */
        boolean within(long from, long to) {
            int i = Arrays.binarySearch(starts, to);
            if (i < 0) i = -i - 1;
            while (i > 0 && starts[i - 1] >= to) i--;
            return i > 0 && maxEnd[i - 1] > from;
        }
    }

    private static Calls calls(Connection c, long tid) throws SQLException {
        List<long[]> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT start, end FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE globalTid = ? "
                + "ORDER BY start")) {
            ps.setLong(1, tid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) rows.add(new long[] {rs.getLong(1), rs.getLong(2)});
            }
        } catch (SQLException e) {
            if (!String.valueOf(e.getMessage()).contains("no such table")) throw e;
        }
        long[] starts = new long[rows.size()];
        long[] maxEnd = new long[rows.size()];
        for (int i = 0; i < starts.length; i++) {
            starts[i] = rows.get(i)[0];
            maxEnd[i] = Math.max(i == 0 ? Long.MIN_VALUE : maxEnd[i - 1], rows.get(i)[1]);
        }
        return new Calls(starts, maxEnd);
    }
}
