package dlproflint.reporters.html.svg;

import java.util.List;
import java.util.function.DoubleFunction;

/**
 * Vertical stacked bars, one per column (an iteration or a bin of iterations): segments bottom-up in
 * series order, an optional marker line per column (the iteration's wall duration, so the gap above
 * the stack is time the GPU spent idle), and a shaded band behind the highlighted columns (the
 * aggregation range). The whole column carries one {@code <title>} tooltip.
 */
public final class SvgStackedBars {
    private static final int LEFT = 64;
    private static final int RIGHT = 12;
    private static final int TOP = 24;
    private static final int BOTTOM = 30;
    private static final int MAX_X_LABELS = 14;

    private SvgStackedBars() {
    }

    /**
     * @param values    segment values bottom-up, in the order of the chart's series colours
     * @param marker    a value drawn as a horizontal tick across the column, or a negative number for none
     * @param highlighted column lies in the shaded band
     */
    public record Column(String label, double[] values, double marker, boolean highlighted, String tooltip) {
    }

    public static String render(String title, String description, List<String> seriesColors, List<Column> columns,
                                String bandLabel, DoubleFunction<String> axisFormat, int width, int height) {
        Svg s = Svg.chart(width, height, title, description);
        double plotW = width - LEFT - RIGHT;
        double plotH = height - TOP - BOTTOM;
        double max = 0;
        for (Column c : columns) {
            double sum = 0;
            for (double v : c.values()) sum += Math.max(0, v);
            max = Math.max(max, Math.max(sum, c.marker()));
        }
        double step = niceStep(max / 4);
        double top = step <= 0 ? 1 : Math.ceil(max / step) * step;
        if (top <= 0) top = 1;

        int n = columns.size();
        double slot = n == 0 ? plotW : plotW / n;

        // aggregation band: one rectangle per contiguous run of highlighted columns
        int runStart = -1;
        boolean labelled = false;
        for (int i = 0; i <= n; i++) {
            boolean h = i < n && columns.get(i).highlighted();
            if (h && runStart < 0) runStart = i;
            if (!h && runStart >= 0) {
                double x = LEFT + runStart * slot;
                double w = (i - runStart) * slot;
                s.open("rect", "x", x, "y", TOP - 4, "width", w, "height", plotH + 4, "fill", Palette.AGGREGATED_BAND,
                        "class", "band");
                s.title(bandLabel);
                s.close("rect");
                s.empty("line", "x1", x, "x2", x, "y1", TOP - 4, "y2", TOP + plotH, "stroke", Palette.TC_KERNEL,
                        "stroke-dasharray", "4 3", "stroke-width", 1);
                s.empty("line", "x1", x + w, "x2", x + w, "y1", TOP - 4, "y2", TOP + plotH, "stroke", Palette.TC_KERNEL,
                        "stroke-dasharray", "4 3", "stroke-width", 1);
                if (!labelled) {
                    s.label(bandLabel, "x", x + 4, "y", TOP - 8, "fill", Palette.TC_KERNEL, "font-size", 11,
                            "font-weight", "bold");
                    labelled = true;
                }
                runStart = -1;
            }
        }

        // grid lines and y-axis labels, over the band so they stay visible inside it
        for (int i = 0; step > 0 && i * step <= top + step / 2; i++) {
            double y = TOP + plotH - (i * step) / top * plotH;
            s.empty("line", "x1", LEFT, "x2", LEFT + plotW, "y1", y, "y2", y, "stroke", Palette.GRID, "stroke-width", 1);
            s.label(axisFormat.apply(i * step), "x", LEFT - 6, "y", y + 4, "text-anchor", "end",
                    "fill", Palette.AXIS, "font-size", 11);
        }
        double barW = Math.min(56, Math.max(1, slot * (n > 60 ? 0.9 : 0.7)));
        int labelEvery = Math.max(1, (int) Math.ceil(n / (double) MAX_X_LABELS));
        for (int i = 0; i < n; i++) {
            Column c = columns.get(i);
            double x = LEFT + i * slot + (slot - barW) / 2;
            double y = TOP + plotH;
            s.open("g");
            s.title(c.tooltip());
            // an invisible full-height hit area, so thin columns still show their tooltip
            s.empty("rect", "x", LEFT + i * slot, "y", TOP, "width", slot, "height", plotH, "fill", "transparent");
            for (int k = 0; k < c.values().length; k++) {
                double v = Math.max(0, c.values()[k]);
                if (v <= 0) continue;
                double h = v / top * plotH;
                y -= h;
                s.empty("rect", "x", x, "y", y, "width", barW, "height", Math.max(0.5, h),
                        "fill", seriesColors.get(k % seriesColors.size()));
            }
            if (c.marker() >= 0) {
                double my = TOP + plotH - c.marker() / top * plotH;
                s.empty("line", "x1", x - 1, "x2", x + barW + 1, "y1", my, "y2", my, "stroke", Palette.INK,
                        "stroke-width", 2);
            }
            s.close("g");
            if (i % labelEvery == 0) {
                s.label(c.label(), "x", LEFT + i * slot + slot / 2, "y", TOP + plotH + 16, "text-anchor", "middle",
                        "fill", Palette.AXIS, "font-size", 11);
            }
        }
        s.empty("line", "x1", LEFT, "x2", LEFT + plotW, "y1", TOP + plotH, "y2", TOP + plotH, "stroke", Palette.AXIS,
                "stroke-width", 1);
        return s.close("svg").toString();
    }

    /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        if (raw <= 0 || Double.isNaN(raw) || Double.isInfinite(raw)) return 0;
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / mag;
        double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
        return nice * mag;
    }
}
