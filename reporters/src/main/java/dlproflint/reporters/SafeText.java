package dlproflint.reporters;

import java.util.regex.Pattern;

/**
 * The one neutralisation of profile-controlled text (kernel, op, NVTX and GPU names, stack traces, file
 * paths) that every text-like report shares: the text report and the lint CSV, the DLProf-format CSVs
 * ({@code dlprof_*.csv}, {@code dlprof_expert_systems.csv}) and the HTML report.
 * <ul>
 *   <li><b>Invisible and reordering characters</b> become visible escapes: C0 and C1 control characters
 *       and DEL ({@code \x1B}: ESC would let a name recolour a terminal or move its cursor, NUL cuts a
 *       value short in many CSV consumers), bidirectional embeddings, overrides and isolates
 *       (U+202E, shown as a backslash, {@code u202E}: "Trojan Source", a name that reads differently from what it is), the line and
 *       paragraph separators and the byte-order mark. Unpaired surrogates become U+FFFD.</li>
 *   <li><b>Spreadsheet formulas</b>: a CSV text cell starting with {@code =}, {@code +}, {@code -},
 *       {@code @}, tab or carriage return is a formula to Excel, LibreOffice and Google Sheets (CSV
 *       injection, OWASP), so it gets a leading {@code '}. A cell that is a plain number ({@code -12},
 *       {@code -0.5}, {@code 1e-3}) is a number, not a formula, and stays as it is; numeric columns are
 *       never passed through here.</li>
 * </ul>
 * Everything else, markup included, is left to the format's own escaping (JSON, HTML, RFC 4180 quoting).
 */
public final class SafeText {
    /** Whitespace a multi-line text format keeps as it is (HTML, where it is only layout). */
    public static final String KEEP_TAB_NEWLINE = "\t\n";
    /** What a CSV cell keeps: quoting makes tab, CR and LF data (a leading tab or CR is neutralised as a formula). */
    public static final String KEEP_CSV_WHITESPACE = "\t\n\r";
    /** A terminal line keeps nothing: a newline in a name would forge a line of the report. */
    public static final String KEEP_NOTHING = "";

    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

    private SafeText() {
    }

    /** {@link #escape(String, String, int)} without a length cap. */
    public static String escape(String s, String keep) {
        return escape(s, keep, Integer.MAX_VALUE);
    }

    /**
     * Replaces every character that could hide or reorder text (see the class comment) by a visible
     * escape: {@code \xNN} below U+0100, a backslash, {@code u} and four hex digits above. Returns {@code s} itself when nothing
     * needs escaping, so the common case allocates nothing. Null stays null.
     *
     * @param keep control characters to leave alone ({@link #KEEP_TAB_NEWLINE}, ...)
     * @param cap  stop once the result is longer than this (for callers that truncate anyway)
     */
    public static String escape(String s, String keep, int cap) {
        if (s == null) return null;
        StringBuilder out = null;
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                if (out != null) out.append(c).append(s.charAt(i + 1));
                i++;
                continue;
            }
            String repl = null;
            if (Character.isSurrogate(c) || c == '\uFFFE' || c == '\uFFFF') {
                repl = "\uFFFD";
            } else if (needsEscape(c) && keep.indexOf(c) < 0) {
                repl = c < 0x100 ? String.format("\\x%02X", (int) c) : String.format("\\u%04X", (int) c);
            }
            if (repl != null && out == null) {
                out = new StringBuilder(n + 16);
                out.append(s, 0, i);
            }
            if (out != null) {
                if (repl != null) out.append(repl); else out.append(c);
                if (out.length() > cap) break;
            }
        }
        return out == null ? s : out.toString();
    }

    /** Whether {@code c} is invisible or changes how the text around it is shown. */
    public static boolean needsEscape(char c) {
        if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) return true;
        // bidi marks, embeddings, overrides and isolates; line/paragraph separators; BOM
        return (c >= '\u202A' && c <= '\u202E') || (c >= '\u2066' && c <= '\u2069')
                || c == '\u200E' || c == '\u200F' || c == '\u061C' || c == '\u2028' || c == '\u2029'
                || c == '\uFEFF';
    }

    /**
     * A spreadsheet text cell: escaped as {@link #escape(String, String)} with {@link #KEEP_CSV_WHITESPACE},
     * then given a leading {@code '} when a spreadsheet would evaluate it. Null becomes empty.
     */
    public static String cell(String value) {
        if (value == null || value.isEmpty()) return "";
        String v = escape(value, KEEP_CSV_WHITESPACE);
        return startsFormula(v) ? "'" + v : v;
    }

    /** Starts with a formula trigger and is not simply a number. */
    public static boolean startsFormula(String v) {
        if (v.isEmpty()) return false;
        char c = v.charAt(0);
        if (c == '=' || c == '@' || c == '\t' || c == '\r') return true;
        return (c == '+' || c == '-') && !NUMBER.matcher(v).matches();
    }
}
