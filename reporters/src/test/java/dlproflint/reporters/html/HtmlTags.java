package dlproflint.reporters.html;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The start tags of a rendered report with their attributes, for assertions on real markup rather than
 * on text (escaped names like {@code &lt;img src=x&gt;} contain "src=" but are not tags). Good enough
 * for our own output, which quotes every attribute value with {@code "}.
 */
record HtmlTags(String name, Map<String, String> attrs) {
    private static final Pattern TAG = Pattern.compile("<([a-zA-Z][a-zA-Z0-9:-]*)((?:\\s+[^\\s=>/]+(?:\\s*=\\s*(?:\"[^\"]*\"|'[^']*'|[^\\s>]+))?)*)\\s*/?>");
    private static final Pattern ATTR = Pattern.compile("\\s+([^\\s=>/]+)(?:\\s*=\\s*(\"[^\"]*\"|'[^']*'|[^\\s>]+))?");

    static List<HtmlTags> parse(String html) {
        // the inline style and script are raw text, not markup
        String markup = html.replaceAll("(?s)<style>.*?</style>", "<style></style>")
                .replaceAll("(?s)<script>.*?</script>", "<script></script>");
        List<HtmlTags> out = new ArrayList<>();
        Matcher m = TAG.matcher(markup);
        while (m.find()) {
            Map<String, String> attrs = new LinkedHashMap<>();
            Matcher a = ATTR.matcher(m.group(2));
            while (a.find()) {
                String v = a.group(2) == null ? "" : a.group(2);
                if (v.startsWith("\"") || v.startsWith("'")) v = v.substring(1, v.length() - 1);
                attrs.put(a.group(1).toLowerCase(Locale.ROOT), v);
            }
            out.add(new HtmlTags(m.group(1).toLowerCase(Locale.ROOT), attrs));
        }
        return out;
    }
}
