package dlproflint.reporters.html.table;

/**
 * One column of a {@link DataTable}: which field of the table's {@link DataBlock} it shows and how it reads.
 * The browser script formats the embedded raw values with the same rules as {@link Cells} does for the
 * server-rendered first page.
 *
 * @param key      stable name within the table (used by tests and in the column spec)
 * @param label    header text
 * @param kind     value type and display format
 * @param hint     header tooltip (what the column means), or null
 * @param field    the block field holding the value (for a reference: the row index into {@code ref})
 * @param ref      id of the block that {@code field} indexes into, or null for a plain value
 * @param refField field of that block to show
 * @param shown    a table column; false: only in the row's detail panel
 * @param fallback field shown when the reference is null (the row it would point to is not embedded), or null
 */
public record Column(String key, String label, Kind kind, String hint, String field, String ref, String refField,
                     boolean shown, String fallback) {

    /** Value kinds; {@code code} is what the script switches on. */
    public enum Kind {
        /** a string, cut to {@link dlproflint.reporters.html.Text#CELL_CHARS} in the cell with the whole in its tooltip */
        TEXT("t", false),
        /** a plain integer (an index, a device id) */
        INT("i", true),
        /** a count with thousands separators */
        COUNT("c", true),
        /** nanoseconds, shown with a unit chosen by magnitude */
        DURATION("d", true),
        /** a percentage 0..100 */
        PCT("p", true),
        /** a size in bytes, shown in binary units */
        BYTES("y", true),
        /** 1 or 0, shown as a check mark or a cross with a word */
        BOOL("b", false),
        /** indexes into the profile's findings block: links to the findings that mention the row */
        FINDINGS("f", false);

        private final String code;
        private final boolean numeric;

        Kind(String code, boolean numeric) {
            this.code = code;
            this.numeric = numeric;
        }

        public String code() {
            return code;
        }

        public boolean numeric() {
            return numeric;
        }
    }

    public static Column of(String key, String label, Kind kind) {
        return new Column(key, label, kind, null, key, null, null, true, null);
    }

    public static Column text(String key, String label) {
        return of(key, label, Kind.TEXT);
    }

    public static Column duration(String key, String label) {
        return of(key, label, Kind.DURATION);
    }

    public static Column count(String key, String label) {
        return of(key, label, Kind.COUNT);
    }

    public static Column bool(String key, String label) {
        return of(key, label, Kind.BOOL);
    }

    /** Links to the findings that mention the row: field {@code findings} holds indexes into {@code findingsBlock}. */
    public static Column findings(String findingsBlock) {
        return new Column("findings", "Findings", Kind.FINDINGS, "Findings about this row", "findings", findingsBlock,
                null, true, null);
    }

    /** Field {@code refField} of the row of block {@code refBlock} whose index is in field {@code field}. */
    public static Column ref(String key, String label, Kind kind, String field, String refBlock, String refField) {
        return new Column(key, label, kind, null, field, refBlock, refField, true, null);
    }

    /** Shows field {@code field} of this table's own block when the reference is null. */
    public Column orElse(String field) {
        return new Column(key, label, kind, hint, this.field, ref, refField, shown, field);
    }

    public Column hint(String text) {
        return new Column(key, label, kind, text, field, ref, refField, shown, fallback);
    }

    /** Kept in the data and the detail panel, not shown as a table column. */
    public Column detailOnly() {
        return new Column(key, label, kind, hint, field, ref, refField, false, fallback);
    }

    public boolean isRef() {
        return ref != null;
    }
}
