package dlproflint.reporters.csv;

import dlproflint.reporters.SafeText;

/**
 * RFC 4180 field encoding of the lint CSV. Every text cell goes through {@link SafeText#cell}, the
 * neutralisation all CSV writers and the text report share (formula prefixes, control and bidi characters).
 */
public final class Csv {
    private Csv() {
    }

    /** The value with a leading {@code '} when a spreadsheet would treat it as a formula; controls escaped. */
    public static String neutralise(String value) {
        return SafeText.cell(value);
    }

    /** Neutralised, then quoted only when RFC 4180 requires it (comma, quote, CR or LF). */
    public static String field(String value) {
        String v = neutralise(value);
        boolean quote = v.indexOf(',') >= 0 || v.indexOf('"') >= 0 || v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0;
        return quote ? quoted(v) : v;
    }

    private static String quoted(String v) {
        return '"' + v.replace("\"", "\"\"") + '"';
    }
}
