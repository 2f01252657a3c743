package dlproflint.reporters.markdown;

import dlproflint.reporters.SafeText;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Makes profile- and rule-controlled strings inert in GitHub-flavoured markdown, where a report is read
 * as a pull-request comment or a job summary. A kernel name must not become a table column ({@code |}),
 * a code span, emphasis, a link, raw HTML, an {@code @mention}, an issue reference, an emoji or an
 * autolink, nor break the one-line cell it sits in. Everything is kept visible: characters are escaped,
 * never dropped, except that control characters are shown as {@code \xNN} and long texts are cut.
 */
final class MarkdownText {
    /**
     * ASCII punctuation with a meaning in GFM inline syntax or on GitHub (CommonMark allows escaping any):
     * {@code :} stops {@code http://} autolinks and {@code :emoji:}, {@code @} mentions, {@code #} issue
     * references, {@code $} math. Parentheses need none: a link needs {@code ]} before them, which is escaped.
     */
    private static final String BACKSLASHED = "\\`*_[]#|~!@:+{}$";

    private MarkdownText() {
    }

    /** One line of inert text, at most {@code maxChars} source characters (then an ellipsis). */
    static String inline(String s, int maxChars) {
        if (s == null || s.isEmpty()) return "";
        boolean cut = s.length() > maxChars;
        String src = cut ? s.substring(0, maxChars) : s;
        StringBuilder b = new StringBuilder(src.length() + 16);
        int n = src.length();
        for (int i = 0; i < n; i++) {
            char c = src.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(src.charAt(i + 1))) {
                b.append(c).append(src.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                b.append('\uFFFD');
            } else if (c == '\n' || c == '\r' || c == '\t') {
                b.append(' ');
            } else if (SafeText.needsEscape(c)) { // the characters every report escapes (control, bidi)
                b.append(c < 0x100 ? String.format("\\\\x%02X", (int) c) : String.format("\\\\u%04X", (int) c));
            } else if (c == '&') {
                b.append("&amp;");
            } else if (c == '<') {
                b.append("&lt;");
            } else if (c == '>') {
                b.append("&gt;");
            } else if (BACKSLASHED.indexOf(c) >= 0) {
                b.append('\\').append(c);
            } else if (c == '.' && endsWithWww(src, i)) {
                b.append("\\."); // "www.example.com" is an autolink in GFM even without a scheme
            } else {
                b.append(c);
            }
        }
        if (cut) b.append('\u2026');
        return b.toString().strip();
    }

    /**
     * A link destination we are willing to emit: http(s) only (a rule's helpUri comes from a site pack,
     * so {@code javascript:} is possible), with the characters that end or confuse a destination encoded.
     * Null when the URI is unusable, in which case callers show the text without a link.
     */
    static String safeUrl(String uri) {
        if (uri == null || uri.isBlank()) return null;
        String u = uri.strip();
        try {
            URI parsed = new URI(u);
            String scheme = parsed.getScheme();
            if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) return null;
            if (parsed.getHost() == null) return null;
        } catch (URISyntaxException e) {
            return null;
        }
        StringBuilder b = new StringBuilder(u.length());
        for (char c : u.toCharArray()) {
            if (c <= 0x20 || c >= 0x7f || "()<>[]|\\`\"'".indexOf(c) >= 0) {
                for (byte x : String.valueOf(c).getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
                    b.append('%').append(String.format(Locale.ROOT, "%02X", x & 0xff));
                }
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** {@code [text](url)}, or the escaped text alone when the URL is not one we emit. */
    static String link(String text, String url, int maxChars) {
        String t = inline(text, maxChars);
        String u = safeUrl(url);
        return u == null || t.isEmpty() ? t : "[" + t + "](" + u + ")";
    }

    private static boolean endsWithWww(String s, int dot) {
        return dot >= 3 && s.regionMatches(true, dot - 3, "www", 0, 3);
    }
}
