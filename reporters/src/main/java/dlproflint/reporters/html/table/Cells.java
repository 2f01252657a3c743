package dlproflint.reporters.html.table;

import dlproflint.findings.Units;
import dlproflint.reporters.html.Text;

/**
 * The text of a cell from its raw value, for the server-rendered first page. The report's script has the
 * same rules for the pages it renders (see {@code report.js}, {@code fmt}); a browser test compares both.
 */
public final class Cells {
    static final String DASH = "\u2014";
    static final String YES = "\u2713 yes";
    static final String NO = "\u2717 no";

    private Cells() {
    }

    /** The display text of {@code value} in a column of {@code kind} (not for {@link Column.Kind#FINDINGS}). */
    public static String text(Column.Kind kind, Object value) {
        if (value == null) return DASH;
        return switch (kind) {
            case TEXT -> Text.truncate(String.valueOf(value), Text.CELL_CHARS);
            case INT -> Long.toString(((Number) value).longValue());
            case COUNT -> Units.count(((Number) value).longValue());
            case DURATION -> Units.duration(((Number) value).doubleValue());
            case PCT -> Units.share(((Number) value).doubleValue());
            case BYTES -> Units.memory(((Number) value).longValue());
            case BOOL -> truthy(value) ? YES : NO;
            case FINDINGS -> "";
        };
    }

    /** The whole value when the cell shows it cut, else null. */
    public static String title(Column.Kind kind, Object value) {
        if (kind != Column.Kind.TEXT || value == null) return null;
        String s = String.valueOf(value);
        return s.length() > Text.CELL_CHARS ? s : null;
    }

    static boolean truthy(Object value) {
        return value instanceof Boolean b ? b : value instanceof Number n && n.longValue() != 0;
    }
}
