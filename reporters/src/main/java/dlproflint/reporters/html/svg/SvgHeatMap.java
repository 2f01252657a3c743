package dlproflint.reporters.html.svg;

import dlproflint.findings.Units;

import java.util.Locale;

/**
 * A rank × step heat map: one cell per rank (row) and aligned step (column), darker for larger values. Large jobs
 * are binned so the page stays small: at most {@link #MAX_ROWS} rows and {@link #MAX_COLUMNS} columns, each cell
 * showing the largest value of the ranks and steps it covers (a straggler stays visible). Every cell has a tooltip
 * with its ranks, steps and value; the scale's ends are written beside the map, so colour is never the only signal.
 */
public final class SvgHeatMap {
    public static final int MAX_ROWS = 64;
    public static final int MAX_COLUMNS = 24;
    private static final int LABEL_W = 78;
    private static final int TOP = 20;
    private static final int LEGEND_H = 26;

    private SvgHeatMap() {
    }

    /**
     * @param values   values[rankIndex][stepIndex], ns; NaN for a missing cell
     * @param ranks    the rank number of each row of {@code values}
     * @param steps    the step number of each column
     * @param lightHex colour of the smallest value
     * @param darkHex  colour of the largest
     */
    public static String render(String title, String what, double[][] values, int[] ranks, int[] steps,
                                String lightHex, String darkHex, int width) {
        int nr = values.length;
        int ns = nr == 0 ? 0 : values[0].length;
        int rows = Math.min(nr, MAX_ROWS);
        int cols = Math.min(ns, MAX_COLUMNS);
        double[][] cell = new double[rows][cols];
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                double v = Double.NaN;
                for (int i = from(r, rows, nr); i < from(r + 1, rows, nr); i++) {
                    for (int j = from(c, cols, ns); j < from(c + 1, cols, ns); j++) {
                        if (!Double.isNaN(values[i][j]) && (Double.isNaN(v) || values[i][j] > v)) v = values[i][j];
                    }
                }
                cell[r][c] = v;
                if (!Double.isNaN(v)) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        double plot = width - LABEL_W - 8;
        double cw = cols == 0 ? plot : plot / cols;
        double ch = rows > 32 ? 8 : 16;
        double height = TOP + rows * ch + LEGEND_H;
        String desc = what + " per rank (rows) and step (columns)"
                + (nr > rows || ns > cols ? "; cells cover several ranks or steps and show their largest value" : "")
                + (Double.isFinite(min) ? "; from " + Units.duration(min) + " (light) to " + Units.duration(max) + " (dark)" : "");
        Svg s = Svg.chart(width, height, title, desc);
        for (int c = 0; c < cols; c++) {
            if (cols <= 12 || c % Math.max(1, cols / 8) == 0) {
                s.label(stepLabel(steps, from(c, cols, ns), from(c + 1, cols, ns)), "x", LABEL_W + c * cw + cw / 2,
                        "y", TOP - 6, "text-anchor", "middle", "fill", Palette.AXIS, "font-size", 10);
            }
        }
        for (int r = 0; r < rows; r++) {
            int a = from(r, rows, nr);
            int b = from(r + 1, rows, nr);
            String rankText = b - a == 1 ? "rank " + ranks[a] : "ranks " + ranks[a] + "-" + ranks[b - 1];
            double y = TOP + r * ch;
            if (rows <= 32 || r % 4 == 0) {
                s.label(rankText, "x", LABEL_W - 6, "y", y + ch - 3, "text-anchor", "end", "fill", Palette.INK,
                        "font-size", rows > 32 ? 8 : 11);
            }
            for (int c = 0; c < cols; c++) {
                double v = cell[r][c];
                s.open("rect", "x", LABEL_W + c * cw, "y", y, "width", Math.max(1, cw - 1), "height", Math.max(1, ch - 1),
                        "fill", Double.isNaN(v) ? Palette.IDLE : mix(lightHex, darkHex, max > min ? (v - min) / (max - min) : 0.5));
                s.title(rankText + ", " + stepLabel(steps, from(c, cols, ns), from(c + 1, cols, ns)).replace("#", "step ")
                        + ": " + (Double.isNaN(v) ? "no data" : what + " " + Units.duration(v)));
                s.close("rect");
            }
        }
        if (Double.isFinite(min)) {
            double y = TOP + rows * ch + 8;
            s.empty("rect", "x", LABEL_W, "y", y, "width", 14, "height", 12, "fill", lightHex);
            s.label(Units.duration(min), "x", LABEL_W + 18, "y", y + 10, "fill", Palette.INK, "font-size", 11);
            s.empty("rect", "x", LABEL_W + 120, "y", y, "width", 14, "height", 12, "fill", darkHex);
            s.label(Units.duration(max), "x", LABEL_W + 138, "y", y + 10, "fill", Palette.INK, "font-size", 11);
        }
        return s.close("svg").toString();
    }

    /** First index of bin {@code b} of {@code bins} over {@code n} items. */
    private static int from(int b, int bins, int n) {
        return (int) ((long) b * n / Math.max(1, bins));
    }

    private static String stepLabel(int[] steps, int a, int b) {
        if (b - a <= 1) return "#" + steps[a];
        return "#" + steps[a] + "-" + steps[b - 1];
    }

    /** The colour {@code t} (0..1) of the way from one hex colour to another. */
    static String mix(String from, String to, double t) {
        double u = Math.max(0, Math.min(1, t));
        int[] x = rgb(from);
        int[] y = rgb(to);
        return String.format(Locale.ROOT, "#%02x%02x%02x", Math.round(x[0] + (y[0] - x[0]) * u),
                Math.round(x[1] + (y[1] - x[1]) * u), Math.round(x[2] + (y[2] - x[2]) * u));
    }

    private static int[] rgb(String hex) {
        int v = Integer.parseInt(hex.substring(1), 16);
        return new int[] {(v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff};
    }
}
