package dlproflint.extract.common;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The queries {@link TableFileScan} answers without SQLite, and what each selected column is in the table's records.
 * The grammar is the readers' storage-order sweeps and nothing more:
 * {@code SELECT item, ... FROM table [WHERE column IN (integer, ...) | WHERE column = integer]}, an item being a
 * column, {@code rowid}, an integer or {@code NULL}, or {@code ifnull(column, integer)}. Whatever else a query holds
 * makes {@link #parse} or {@link #bind} answer null, and the query goes to SQLite.
 */
final class ScanQuery {
    private static final Pattern QUERY = Pattern.compile(
            "(?is)\\s*SELECT\\s+(.+?)\\s+FROM\\s+([A-Za-z_][A-Za-z0-9_]*)\\s*(?:WHERE\\s+(.+?))?\\s*");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern INTEGER = Pattern.compile("[-+]?\\d{1,18}");
    private static final Pattern IFNULL = Pattern.compile("(?i)ifnull\\s*\\(\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*,\\s*([-+]?\\d{1,18})\\s*\\)");
    private static final Pattern IN = Pattern.compile("(?is)([A-Za-z_][A-Za-z0-9_]*)\\s+IN\\s*\\(([-+\\d\\s,]+)\\)");
    private static final Pattern EQUALS = Pattern.compile("(?is)([A-Za-z_][A-Za-z0-9_]*)\\s*=\\s*([-+]?\\d{1,18})");

    /** A query as written: its table, its items and its filter (null: none). */
    record Parsed(String table, List<String> items, String filterColumn, long[] filterValues) {
    }

    private static final int COLUMN = 0;
    private static final int ROWID = 1;
    private static final int CONSTANT = 2;
    private static final int NULL = 3;
    private static final int IF_NULL = 4;

    /** per selected column: its kind, its record column (or -1 for the rowid), its constant */
    private final int[] kind;
    private final int[] record;
    private final long[] constant;
    private final int filterRecord;
    private final long[] filterValues;
    private final int recordColumnsNeeded;

    private ScanQuery(int[] kind, int[] record, long[] constant, int filterRecord, long[] filterValues) {
        this.kind = kind;
        this.record = record;
        this.constant = constant;
        this.filterRecord = filterRecord;
        this.filterValues = filterValues;
        int max = filterRecord;
        for (int r : record) max = Math.max(max, r);
        this.recordColumnsNeeded = max + 1;
    }

    /** The query's parts; null when it is not of the grammar above. */
    static Parsed parse(String sql) {
        Matcher m = QUERY.matcher(sql);
        if (!m.matches()) return null;
        List<String> items = new ArrayList<>();
        for (String item : splitTopLevel(m.group(1))) {
            String t = item.trim();
            if (!(NAME.matcher(t).matches() || INTEGER.matcher(t).matches() || IFNULL.matcher(t).matches())) return null;
            items.add(t);
        }
        String where = m.group(3);
        if (where == null) return new Parsed(m.group(2), items, null, null);
        Matcher in = IN.matcher(where.trim());
        Matcher eq = EQUALS.matcher(where.trim());
        String column;
        String list;
        if (in.matches()) {
            column = in.group(1);
            list = in.group(2);
        } else if (eq.matches()) {
            column = eq.group(1);
            list = eq.group(2);
        } else {
            return null;
        }
        String[] parts = list.split(",");
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String v = parts[i].trim();
            if (!INTEGER.matcher(v).matches()) return null;
            values[i] = Long.parseLong(v);
        }
        return new Parsed(m.group(2), items, column, values);
    }

    /** Splits on the commas outside parentheses. */
    private static List<String> splitTopLevel(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int from = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') depth++;
            else if (c == ')') depth--;
            else if (c == ',' && depth == 0) {
                out.add(s.substring(from, i));
                from = i + 1;
            }
        }
        out.add(s.substring(from));
        return out;
    }

    private record Column(int cid, String type, boolean defaultNull) {
    }

    /**
     * The query against the table's columns as {@code PRAGMA table_xinfo} lists them; null when the table has
     * columns that are not stored in its records (generated ones), a selected column with a default other than NULL,
     * a filter on a column without INTEGER affinity, or a name that is not a column.
     */
    static ScanQuery bind(Connection c, Parsed q) throws SQLException {
        Map<String, Column> columns = new HashMap<>();
        int primaryKeys = 0;
        int alias = -1;
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("PRAGMA table_xinfo(\"" + q.table() + "\")")) {
            while (rs.next()) {
                int cid = rs.getInt("cid");
                String name = rs.getString("name");
                String type = rs.getString("type");
                type = type == null ? "" : type.trim().toUpperCase(Locale.ROOT);
                if (rs.getInt("hidden") != 0) return null;
                int pk = rs.getInt("pk");
                if (pk > 0) {
                    primaryKeys++;
                    if (type.equals("INTEGER")) alias = cid;
                }
                rs.getString("dflt_value");
                boolean defaultNull = rs.wasNull();
                columns.put(name.toLowerCase(Locale.ROOT), new Column(cid, type, defaultNull));
            }
        }
        if (columns.isEmpty()) return null;
        // an INTEGER PRIMARY KEY is the rowid itself: its record slot holds NULL
        int rowidAlias = primaryKeys == 1 ? alias : -1;
        int n = q.items().size();
        int[] kind = new int[n];
        int[] record = new int[n];
        long[] constant = new long[n];
        java.util.Arrays.fill(record, -1);
        for (int i = 0; i < n; i++) {
            String item = q.items().get(i);
            Matcher ifNull = IFNULL.matcher(item);
            String name = item;
            if (ifNull.matches()) {
                name = ifNull.group(1);
                constant[i] = Long.parseLong(ifNull.group(2));
                kind[i] = IF_NULL;
            } else if (INTEGER.matcher(item).matches()) {
                kind[i] = CONSTANT;
                constant[i] = Long.parseLong(item);
                continue;
            } else if (item.equalsIgnoreCase("NULL")) {
                kind[i] = NULL;
                continue;
            } else {
                kind[i] = COLUMN;
            }
            Column col = columns.get(name.toLowerCase(Locale.ROOT));
            if (col == null) {
                if (!isRowidName(name)) return null;
                kind[i] = ROWID; // never NULL, so ifnull(rowid, k) is the rowid
            } else if (col.cid() == rowidAlias) {
                kind[i] = ROWID;
            } else {
                if (!col.defaultNull()) return null;
                record[i] = col.cid();
            }
        }
        int filterRecord = -1;
        if (q.filterColumn() != null) {
            Column col = columns.get(q.filterColumn().toLowerCase(Locale.ROOT));
            // INTEGER affinity (the type names an INT): a stored text never equals an integer there, as in SQLite
            if (col == null || col.cid() == rowidAlias || !col.type().contains("INT")) return null;
            filterRecord = col.cid();
        }
        return new ScanQuery(kind, record, constant, filterRecord, q.filterValues());
    }

    private static boolean isRowidName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.equals("rowid") || n.equals("oid") || n.equals("_rowid_");
    }

    /** How many of the record's leading columns a row must be decoded up to. */
    int recordColumnsNeeded() {
        return recordColumnsNeeded;
    }

    /** Whether the current row passes the filter (SQLite's comparison of a number with the list's integers). */
    boolean matches(TableFileScan row) throws SQLException {
        if (filterRecord < 0) return true;
        int t = row.type(filterRecord);
        if (t == 0 || t >= 12) return false; // NULL matches nothing; a text or blob no integer
        if (t == 7) {
            double d = row.doubleOf(filterRecord);
            for (long v : filterValues) if (d == (double) v && (long) d == v) return true;
            return false;
        }
        long x = row.longOf(filterRecord);
        for (long v : filterValues) if (x == v) return true;
        return false;
    }

    long longOf(TableFileScan row, int column) throws SQLException {
        switch (kind[column]) {
            case COLUMN:
                return row.longOf(record[column]);
            case ROWID:
                return row.rowid();
            case CONSTANT:
                return constant[column];
            case NULL:
                return 0;
            default: // IF_NULL
                return row.type(record[column]) == 0 ? constant[column] : row.longOf(record[column]);
        }
    }

    byte[] utf8Of(TableFileScan row, int column) throws SQLException {
        switch (kind[column]) {
            case COLUMN:
                return row.utf8Of(record[column]);
            case NULL:
                return null;
            case IF_NULL:
                if (row.type(record[column]) != 0) return row.utf8Of(record[column]);
                return SqliteValues.integerText(constant[column]);
            default:
                return SqliteValues.integerText(longOf(row, column));
        }
    }

    /** The selected column's serial type in the current row (6, an integer, for the rowid and the constants). */
    int serialType(TableFileScan row, int column) {
        switch (kind[column]) {
            case COLUMN:
            case IF_NULL:
                return row.type(record[column]);
            case NULL:
                return 0;
            default:
                return 6;
        }
    }

    boolean isNull(TableFileScan row, int column) {
        switch (kind[column]) {
            case COLUMN:
                return row.type(record[column]) == 0;
            case NULL:
                return true;
            default:
                return false;
        }
    }
}
