package dlproflint.reporters.csv;

/**
 * RFC 4180 field encoding plus spreadsheet formula neutralisation. A cell that starts with
 * {@code =}, {@code +}, {@code -}, {@code @}, tab or carriage return is a formula to Excel,
 * LibreOffice and Google Sheets (CSV injection, OWASP); profile-controlled text such as a kernel or
 * NVTX range name must never become one, so such a value gets a leading {@code '}. Control
 * characters other than tab, CR and LF (NUL, ESC, ...) are written as {@code \xNN}: several CSV
 * consumers stop at a NUL, and none of them is data anyone wants in a cell.
 */
public final class Csv {
    private Csv() {
    }

    /** The value with a leading {@code '} when a spreadsheet would treat it as a formula. */
    public static String neutralise(String value) {
        if (value == null || value.isEmpty()) return value == null ? "" : value;
        value = escapeControls(value);
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

    private static String quoted(String v) {
        return '"' + v.replace("\"", "\"\"") + '"';
    }

    private static String escapeControls(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean control = (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c >= 0x7f && c <= 0x9f);
            if (control) {
                if (b == null) b = new StringBuilder(s.length() + 8).append(s, 0, i);
                b.append(String.format("\\x%02x", (int) c));
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? s : b.toString();
    }
}
