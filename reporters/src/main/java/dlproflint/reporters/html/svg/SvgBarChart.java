package dlproflint.reporters.html.svg;

import dlproflint.reporters.html.Text;

import java.util.List;

/**
 * Horizontal bars with a label column and a value label, e.g. utilization per GPU. Each bar has a
 * {@code <title>} tooltip; values are drawn as text too, so the chart reads without hovering.
 */
public final class SvgBarChart {
    private static final int ROW = 26;
    private static final int BAR = 16;
    private static final int LABEL_W = 70;
    private static final int VALUE_W = 80;

    private SvgBarChart() {
    }

    /**
     * @param bars       the bars in display order
     * @param max        the value of a full-width bar (e.g. 100 for percentages)
     * @param valueLabels the text printed right of each bar, same order as {@code bars}
     */
    public static String render(String title, List<Part> bars, double max, List<String> valueLabels, int width) {
        int height = Math.max(1, bars.size()) * ROW + 8;
        double plot = width - LABEL_W - VALUE_W;
        Svg s = Svg.chart(width, height, title, null);
        for (int i = 0; i < bars.size(); i++) {
            Part b = bars.get(i);
            double y = 4 + i * ROW;
            double w = max <= 0 ? 0 : Math.min(1, b.value() / max) * plot;
            s.open("g");
            s.title(b.tooltip());
            s.label(Text.truncate(Text.clean(b.label()), 10), "x", LABEL_W - 8, "y", y + BAR - 3,
                    "text-anchor", "end", "fill", Palette.INK);
            s.empty("rect", "x", LABEL_W, "y", y, "width", plot, "height", BAR, "fill", Palette.IDLE, "rx", 2);
            if (w > 0) s.empty("rect", "x", LABEL_W, "y", y, "width", Math.max(1, w), "height", BAR,
                    "fill", b.color(), "rx", 2);
            s.label(valueLabels.get(i), "x", LABEL_W + plot + 6, "y", y + BAR - 3, "fill", Palette.INK);
            s.close("g");
        }
        return s.close("svg").toString();
    }
}
