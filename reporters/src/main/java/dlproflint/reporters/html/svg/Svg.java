package dlproflint.reporters.html.svg;

import dlproflint.reporters.html.Text;

import java.util.Locale;

/**
 * A tiny SVG writer. Every attribute value and text node passes through {@link #escape}, so chart
 * labels taken from a profile (kernel names with {@code <}, {@code >}, {@code &}) cannot become markup.
 * Charts use presentation attributes ({@code fill=}, {@code width=}) and never {@code style=}, so they
 * render under a Content-Security-Policy that forbids inline styles and without any CSS at all.
 */
public final class Svg {
    private final StringBuilder sb = new StringBuilder(1024);

    /** Escapes text for an SVG/HTML attribute value or text node (after {@link Text#clean}). */
    public static String escape(String s) {
        if (s == null) return "";
        String c = Text.clean(s);
        StringBuilder out = new StringBuilder(c.length() + 16);
        for (int i = 0; i < c.length(); i++) {
            char ch = c.charAt(i);
            switch (ch) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(ch);
            }
        }
        return out.toString();
    }

    /** A coordinate or length with at most one decimal, locale independent. */
    public static String num(double v) {
        double r = Math.round(v * 10) / 10.0;
        return r == Math.rint(r) ? Long.toString((long) r) : String.format(Locale.ROOT, "%.1f", r);
    }

    /** Opens {@code <tag name="value" ...>}; attributes are name/value pairs, null values are skipped. */
    public Svg open(String tag, Object... attrs) {
        start(tag, attrs);
        sb.append('>');
        return this;
    }

    /** Writes a self-closing {@code <tag .../>}. */
    public Svg empty(String tag, Object... attrs) {
        start(tag, attrs);
        sb.append("/>");
        return this;
    }

    public Svg close(String tag) {
        sb.append("</").append(tag).append('>');
        return this;
    }

    /** Escaped character data. */
    public Svg text(String s) {
        sb.append(escape(s));
        return this;
    }

    /** {@code <title>} child: the browser's tooltip and the accessible name of its parent. */
    public Svg title(String s) {
        return open("title").text(s).close("title");
    }

    /** {@code <text>} element with escaped content. */
    public Svg label(String s, Object... attrs) {
        return open("text", attrs).text(s).close("text");
    }

    private void start(String tag, Object[] attrs) {
        if (attrs.length % 2 != 0) throw new IllegalArgumentException("attributes need name/value pairs");
        sb.append('<').append(tag);
        for (int i = 0; i < attrs.length; i += 2) {
            Object v = attrs[i + 1];
            if (v == null) continue;
            String value = v instanceof Double d ? num(d) : v instanceof Float f ? num(f) : String.valueOf(v);
            sb.append(' ').append(attrs[i]).append("=\"").append(escape(value)).append('"');
        }
    }

    /** Opens the root element of an accessible chart: {@code role="img"}, a title and a description. */
    public static Svg chart(double width, double height, String title, String description) {
        Svg s = new Svg();
        s.open("svg", "xmlns", "http://www.w3.org/2000/svg", "class", "chart", "role", "img",
                "width", width, "height", height, "viewBox", "0 0 " + num(width) + " " + num(height),
                "aria-label", title, "font-family", "system-ui, sans-serif", "font-size", 12);
        s.title(title);
        if (description != null) s.open("desc").text(description).close("desc");
        return s;
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
