package dlproflint.extract.nsys;

import dlproflint.extract.common.RowCursor;
import dlproflint.extract.common.TableFileScan;

import java.sql.SQLException;
import java.util.Locale;

/**
 * Streams a table in the order of some keys. nsys writes its tables in time order, so unless the table is
 * already known to be out of that order the rows are read in storage (rowid) order, sorting nothing, and
 * the stream checks every row's keys against the previous row's: the first row out of order marks the table
 * unsorted for these keys and throws {@link OutOfOrder}, and the reader runs the pass again, letting SQLite
 * sort ({@code ORDER BY} the keys). The check costs nothing beyond the values the pass reads anyway, where a
 * separate scan to decide would read the table twice. Keys compare as SQLite's {@code COALESCE(key, 0)}
 * (a NULL reads as 0); a key may end in {@code " DESC"}.
 */
final class OrderedScan {
    /** A row out of the expected order in a table streamed in storage order; the pass is run again sorted. */
    static final class OutOfOrder extends RuntimeException {
        OutOfOrder(String table) {
            super(table + " is not stored in the order needed; read again sorted", null, false, false);
        }
    }

    private final NsysDatabase db;
    private final String table;
    private final String where;
    private final String orderKey;
    private final String sortedBy;
    private final boolean[] desc;
    private final boolean verify;
    private final long[] prev = new long[3];
    private boolean first = true;
    /** rows checked so far */
    private long seen;

    OrderedScan(NsysDatabase db, String table, String where, String... keys) {
        if (keys.length > 3) throw new IllegalArgumentException("at most three keys");
        this.db = db;
        this.table = table;
        this.where = where;
        // by table, not by filter or keys: a table's storage order is time order or not as a whole (nsys stores
        // push/pop ranges when they end), so the first stream to meet a row out of order tells every later stream of
        // the table, whatever its filter and keys, to let SQLite sort; none runs into it and restarts the read. At
        // worst a table in (pid, start) order but not in start order is sorted once more than it needed.
        this.orderKey = table;
        // a constant key (the process "0" of an export whose GPU tables name no process) orders nothing, and SQLite
        // would read an integer in ORDER BY as a column number ("1st ORDER BY term out of range")
        String sortKeys = java.util.Arrays.stream(keys).filter(k -> !k.trim().matches("-?\\d+"))
                .collect(java.util.stream.Collectors.joining(", "));
        this.sortedBy = sortKeys.isEmpty() ? "" : " ORDER BY " + sortKeys;
        this.desc = new boolean[keys.length];
        for (int i = 0; i < keys.length; i++) desc[i] = keys[i].trim().toUpperCase(Locale.ROOT).endsWith(" DESC");
        this.verify = !db.knownUnsorted(orderKey);
    }

    /** Whether it reads the table in storage order (checking the keys), not sorted by SQLite. */
    boolean storageOrder() {
        return verify && !db.knownUnsorted(orderKey);
    }

    /** Runs {@code select} (everything but the ORDER BY) in key order. */
    RowCursor open(String select) throws SQLException {
        if (!verify) return RowCursor.open(db.connection(), select + sortedBy);
        try {
            // storage order is the table B-tree's own: read from the file where the query allows
            RowCursor direct = TableFileScan.open(db.connection(), select, db.deadline());
            if (direct != null) return direct;
            return RowCursor.open(db.connection(), select + " ORDER BY rowid");
        } catch (SQLException e) {
            // views and WITHOUT ROWID tables have no rowid: let SQLite sort
            if (!String.valueOf(e.getMessage()).contains("rowid")) throw e;
            db.markUnsorted(orderKey);
            return RowCursor.open(db.connection(), select + sortedBy);
        }
    }

    void check(long k0) {
        check(k0, 0, 0);
    }

    /** Checks the keys of the next row (unused trailing keys 0) when the table is read in storage order. */
    void check(long k0, long k1, long k2) {
        if (!verify) return;
        seen++;
        if (first) {
            first = false;
        } else {
            int c = compare(0, k0);
            if (c == 0 && desc.length > 1) c = compare(1, k1);
            if (c == 0 && desc.length > 2) c = compare(2, k2);
            if (c < 0) {
                db.markUnsorted(orderKey);
                throw new OutOfOrder(table);
            }
        }
        prev[0] = k0;
        prev[1] = k1;
        prev[2] = k2;
    }

    /**
     * A stream that stops before the end of its table (a start-ordered sweep past its window) has not seen
     * the rows after the current one; in storage order none of them may start before {@code start}, or the
     * table is out of order after all. One SQL scan of the rest, no row crossing to Java.
     */
    void checkRest(long start) throws SQLException {
        if (!verify) return;
        String sql = "SELECT EXISTS (SELECT 1 FROM (SELECT COALESCE(start, 0) AS s FROM " + table
                + (where == null ? "" : " WHERE " + where) + " ORDER BY rowid LIMIT -1 OFFSET " + seen + ") WHERE s < "
                + start + ")";
        if (db.scalarLong(sql, 0) != 0) {
            db.markUnsorted(orderKey);
            throw new OutOfOrder(table);
        }
    }

    private int compare(int i, long k) {
        int c = Long.compare(k, prev[i]);
        return desc[i] ? -c : c;
    }
}
