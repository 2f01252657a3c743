package dlproflint.reporters.html.svg;

import java.util.List;

/**
 * One horizontal bar split into coloured segments proportional to their values (a time breakdown,
 * ops using / eligible for / not eligible for tensor cores). The legend is HTML beside it, built from
 * the same {@link Part}s; {@link #swatch} draws the legend's colour keys.
 */
public final class SvgStackedBar {
    private static final int HEIGHT = 28;

    private SvgStackedBar() {
    }

    public static String render(String title, List<Part> parts, int width) {
        double total = parts.stream().mapToDouble(Part::value).sum();
        Svg s = Svg.chart(width, HEIGHT, title, null);
        if (total <= 0) {
            s.empty("rect", "x", 0, "y", 0, "width", width, "height", HEIGHT, "fill", Palette.IDLE, "rx", 3);
            s.label("no data", "x", width / 2.0, "y", HEIGHT / 2.0 + 4, "text-anchor", "middle", "fill", Palette.AXIS);
            return s.close("svg").toString();
        }
        double x = 0;
        for (Part p : parts) {
            if (p.value() <= 0) continue;
            double w = p.value() / total * width;
            s.open("rect", "x", x, "y", 0, "width", Math.max(0.5, w), "height", HEIGHT, "fill", p.color());
            s.title(p.tooltip());
            s.close("rect");
            x += w;
        }
        return s.close("svg").toString();
    }

    /** A small square in a legend colour; decorative, the legend text says what it means. */
    public static String swatch(String color) {
        Svg s = new Svg();
        s.open("svg", "xmlns", "http://www.w3.org/2000/svg", "class", "swatch", "width", 12, "height", 12,
                "viewBox", "0 0 12 12", "aria-hidden", "true");
        s.empty("rect", "width", 12, "height", 12, "rx", 2, "fill", color);
        return s.close("svg").toString();
    }

    /** An inline meter for table cells (share of the total); decorative, the number is in the cell. */
    public static String meter(double fraction, String color) {
        double f = Double.isNaN(fraction) ? 0 : Math.max(0, Math.min(1, fraction));
        Svg s = new Svg();
        s.open("svg", "xmlns", "http://www.w3.org/2000/svg", "class", "meter", "width", 60, "height", 8,
                "viewBox", "0 0 60 8", "aria-hidden", "true");
        s.empty("rect", "width", 60, "height", 8, "rx", 2, "fill", Palette.IDLE);
        if (f > 0) s.empty("rect", "width", Math.max(1, 60 * f), "height", 8, "rx", 2, "fill", color);
        return s.close("svg").toString();
    }
}
