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
 *       injection, OWASP), so it gets a leading {@code '}. So does one whose first visible character is one
 *       of those after white space or line breaks (an import that trims cells sees {@code =} first), or is
 *       a compatibility form of one: the fullwidth {@code ＝＋－＠} (U+FF1D, U+FF0B, U+FF0D, U+FF20) and the
 *       small forms U+FE62, U+FE63, U+FE66, U+FE6B, which spreadsheet applications in East Asian locales
 *       read as the ASCII operator. A cell that is a plain ASCII number ({@code -12}, {@code -0.5},
 *       {@code 1e-3}) is a number, not a formula, and stays as it is; numeric columns are never passed
 *       through here.</li>
 *   <li><b>CSV cells keep no control character</b>: tab, line feed and carriage return are escaped like the
 *       others ({@code \x0A}), so a name can neither start a formula on a line of its own nor make one cell
 *       read as two rows in a tool that does not honour quoting.</li>
 * </ul>
 * Everything else, markup included, is left to the format's own escaping (JSON, HTML, RFC 4180 quoting).
 */
public final class SafeText {
    /** Whitespace a multi-line text format keeps as it is (HTML, where it is only layout). */
    public static final String KEEP_TAB_NEWLINE = "\t\n";
    /** A terminal line keeps nothing: a newline in a name would forge a line of the report. */
    public static final String KEEP_NOTHING = "";

    /** What a CSV cell keeps: the line feed, inside its quotes (everything else is escaped). */
    public static final String KEEP_CSV_NEWLINE = "\n";

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
     * A spreadsheet text cell: escaped as {@link #escape(String, String)} with {@link #KEEP_CSV_NEWLINE},
     * then given a leading {@code '} when a spreadsheet would evaluate it. Null becomes empty.
     */
    public static String cell(String value) {
        if (value == null || value.isEmpty()) return "";
        String v = escape(value, KEEP_CSV_NEWLINE);
        return startsFormula(v) ? "'" + v : v;
    }

    /**
     * Starts with a formula trigger (after any white space or line breaks, in ASCII or a compatibility form such as
     * the fullwidth {@code ＝}) and is not simply an ASCII number.
     */
    public static boolean startsFormula(String v) {
        if (v.isEmpty()) return false;
        char first = v.charAt(0);
        if (first == '\t' || first == '\r' || first == '\n') return true;
        int i = 0;
        while (i < v.length() && isBlank(v.charAt(i))) i++;
        if (i == v.length()) return false;
        char c = operator(v.charAt(i));
        if (c == '=' || c == '@') return true;
        if (c != '+' && c != '-') return false;
        return i > 0 || c != v.charAt(i) || !NUMBER.matcher(v).matches();
    }

    private static boolean isBlank(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c);
    }

    /** The ASCII operator a compatibility character stands for ({@code ＝} is {@code =}), or {@code c} itself. */
    private static char operator(char c) {
        if (c < 0x80) return c;
        String n = java.text.Normalizer.normalize(String.valueOf(c), java.text.Normalizer.Form.NFKC);
        return n.length() == 1 ? n.charAt(0) : c;
    }
}
