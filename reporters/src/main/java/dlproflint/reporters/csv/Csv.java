package dlproflint.reporters.csv;

/**
 * RFC 4180 field encoding plus spreadsheet formula neutralisation. A cell that starts with
 * {@code =}, {@code +}, {@code -}, {@code @}, tab or carriage return is a formula to Excel,
 * LibreOffice and Google Sheets (CSV injection, OWASP); profile-controlled text such as a kernel or
 * NVTX range name must never become one, so such a value gets a leading {@code '}.
 */
public final class Csv {
    private Csv() {
    }

    /** The value with a leading {@code '} when a spreadsheet would treat it as a formula. */
    public static String neutralise(String value) {
        if (value == null || value.isEmpty()) return value == null ? "" : value;
        char c = value.charAt(0);
        boolean formula = c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r';
        return formula ? "'" + value : value;
    }

    /** Neutralised, then quoted only when RFC 4180 requires it (comma, quote, CR or LF). */
    public static String field(String value) {
        String v = neutralise(value);
        boolean quote = v.indexOf(',') >= 0 || v.indexOf('"') >= 0 || v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0;
        return quote ? quoted(v) : v;
    }

    /** Neutralised and always quoted, as DLProf writes its CSV rows. */
    public static String alwaysQuoted(String value) {
        return quoted(neutralise(value));
    }

    private static String quoted(String v) {
        return '"' + v.replace("\"", "\"\"") + '"';
    }
}
