package dlproflint.reporters.html;

import dlproflint.reporters.SafeText;

/**
 * Makes strings from a profile safe to show as text. HTML escaping is FreeMarker's job (and
 * {@link dlproflint.reporters.html.svg.Svg}'s inside charts); this class handles what escaping does not:
 * control characters (invisible, and some are parse errors in HTML), bidirectional overrides that can
 * make a name read differently from what it is, lone surrogates ({@link SafeText}, shared with the text
 * and CSV reports), and names of megabytes.
 */
public final class Text {
    /** Longest text a table cell shows; the full value goes to the {@code title} attribute. */
    public static final int CELL_CHARS = 120;
    /** Longest value any attribute or text node gets, so a 10 MB kernel name cannot bloat the report. */
    public static final int MAX_CHARS = 2000;

    private Text() {
    }

    /**
     * Replaces C0/C1 control characters (except tab and newline), bidi embedding/override/isolate marks,
     * and unpaired surrogates by a visible escape such as {@code \x07}, and caps the length at
     * {@link #MAX_CHARS}. Null stays null.
     */
    public static String clean(String s) {
        // cut first, so a 10 MB name costs no more than a short one
        return truncate(escapeControls(truncate(s, MAX_CHARS), MAX_CHARS), MAX_CHARS);
    }

    /** Like {@link #clean} without the length cap: for the template's own markup (charts, style, script). */
    public static String escapeControls(String s) {
        return escapeControls(s, Integer.MAX_VALUE);
    }

    private static String escapeControls(String s, int cap) {
        return SafeText.escape(s, SafeText.KEEP_TAB_NEWLINE, cap);
    }

    /** Cleans and shortens to at most {@code max} characters, ending with an ellipsis when cut. */
    public static String truncate(String s, int max) {
        if (s == null || s.length() <= max) return s;
        int cut = max - 1;
        if (cut > 0 && Character.isHighSurrogate(s.charAt(cut - 1))) cut--;
        return s.substring(0, Math.max(0, cut)) + "\u2026";
    }

    /** A table-cell version of a cleaned name. */
    public static String cell(String s) {
        return truncate(clean(s), CELL_CHARS);
    }

    /** {@code "—"} for null or blank values, so unset facts read as missing rather than empty. */
    public static String orDash(String s) {
        return s == null || s.isBlank() ? "\u2014" : clean(s);
    }
}
