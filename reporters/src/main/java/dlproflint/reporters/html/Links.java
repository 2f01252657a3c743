package dlproflint.reporters.html;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns URLs into links without letting a rule or a profile inject a {@code javascript:} or
 * {@code data:} link: only absolute http(s) URLs with a host become {@code href}s.
 */
public final class Links {
    private static final Pattern URL = Pattern.compile("https?://[^\\s<>\"'`]+");

    private Links() {
    }

    /** A piece of text, linked when {@code href} is not null. */
    public record Segment(String text, String href) {
    }

    /** The URL when it is a safe navigation target (absolute http or https with a host), else null. */
    public static String safeHref(String uri) {
        if (uri == null || uri.isBlank() || uri.length() > Text.MAX_CHARS) return null;
        try {
            URI u = new URI(uri.trim());
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) return null;
            if (u.getHost() == null || u.getHost().isEmpty()) return null;
            return u.toASCIIString();
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /** Splits text into plain and linked segments; trailing punctuation stays outside the link. */
    public static List<Segment> segments(String text) {
        List<Segment> out = new ArrayList<>();
        if (text == null || text.isEmpty()) return out;
        String clean = Text.clean(text);
        Matcher m = URL.matcher(clean);
        int pos = 0;
        while (m.find()) {
            String url = m.group();
            int end = m.end();
            while (!url.isEmpty() && ".,;:!?)]}".indexOf(url.charAt(url.length() - 1)) >= 0) {
                url = url.substring(0, url.length() - 1);
                end--;
            }
            String href = safeHref(url);
            if (href == null) continue;
            if (m.start() > pos) out.add(new Segment(clean.substring(pos, m.start()), null));
            out.add(new Segment(url, href));
            pos = end;
        }
        if (pos < clean.length()) out.add(new Segment(clean.substring(pos), null));
        return out;
    }
}
