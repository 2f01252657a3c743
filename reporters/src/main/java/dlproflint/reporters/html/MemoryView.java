package dlproflint.reporters.html;

import dlproflint.detail.MemoryCurve;
import dlproflint.detail.ModuleTime;
import dlproflint.findings.Units;
import dlproflint.reporters.html.svg.Palette;
import dlproflint.reporters.html.svg.Svg;
import dlproflint.reporters.html.svg.SvgStackedBar;

import java.util.ArrayList;
import java.util.List;

/**
 * The Memory view (device memory over time per GPU: allocated and reserved curves, the device's capacity when known,
 * and the peak marked with the op that reached it) and the Module view's rows (time per {@code nn.Module}).
 *
 * @param charts  one SVG per device
 * @param peaks   the peaks in words, one per device
 * @param source  what the curves measure
 * @param note    why there is no curve, or null
 * @param modules the module rows, longest first (at most {@value #MODULE_ROWS})
 * @param modulesNote why there are none, or how many were left out
 */
public record MemoryView(List<String> charts, List<String> peaks, List<LegendItem> legend, String source, String note,
                         List<ModuleRow> modules, String modulesNote) {
    static final int MODULE_ROWS = 200;
    static final double WIDTH = 1100;
    static final double HEIGHT = 220;
    static final String ALLOCATED = Palette.NON_TC_KERNEL;
    static final String RESERVED = Palette.MEMORY;

    /** A row of the Module view. */
    public record ModuleRow(String path, String name, int depth, long calls, String total, String self, String share,
                            long totalNs) {
    }

    static MemoryView of(MemoryCurve curve, String note, List<ModuleTime> modules, String modulesNote) {
        List<String> charts = new ArrayList<>();
        List<String> peaks = new ArrayList<>();
        if (curve != null) {
            for (MemoryCurve.Device d : curve.devices()) {
                charts.add(chart(d));
                peaks.add("GPU " + d.deviceId() + ": peak " + Units.bytes(d.peakAllocated()) + " allocated"
                        + (d.capacity() > 0 ? " of " + Units.bytes(d.capacity()) + " (" + Units.share(100.0 * d.peakAllocated() / d.capacity()) + ")" : "")
                        + ", " + Units.bytes(d.peakReserved()) + " reserved at most"
                        + (d.peakOp() != null ? "; the peak was reached in " + Text.clean(d.peakOp()) : "")
                        + " (" + d.events() + " memory events)");
            }
        }
        List<LegendItem> legend = List.of(new LegendItem(SvgStackedBar.swatch(ALLOCATED), "allocated", null, null),
                new LegendItem(SvgStackedBar.swatch(RESERVED), "reserved", null, null),
                new LegendItem(SvgStackedBar.swatch(Palette.ELIGIBLE_NOT_TC), "peak", null, null),
                new LegendItem(SvgStackedBar.swatch(Palette.AXIS), "device memory (dashed)", null, null));
        long top = modules.isEmpty() ? 1 : modules.stream().filter(m -> m.depth() == 0).mapToLong(ModuleTime::totalNs).sum();
        List<ModuleRow> rows = new ArrayList<>();
        for (ModuleTime m : modules.stream().limit(MODULE_ROWS).toList()) {
            rows.add(new ModuleRow(Text.clean(m.path()), Text.clean(m.name()), m.depth(), m.calls(), Units.duration(m.totalNs()),
                    Units.duration(m.selfNs()), top > 0 ? Units.share(100.0 * m.totalNs() / top) : "\u2014", m.totalNs()));
        }
        String mNote = modulesNote != null ? Text.clean(modulesNote) : modules.size() > MODULE_ROWS
                ? "The " + MODULE_ROWS + " modules with the most time of " + modules.size() + " are shown." : null;
        return new MemoryView(charts, peaks, legend, curve == null ? null : Text.clean(curve.source()),
                curve == null ? Text.clean(note == null ? "This profile recorded no memory events." : note) : null, rows, mNote);
    }

    private static String chart(MemoryCurve.Device d) {
        long[] t = d.timeNs();
        int n = t.length;
        long t0 = n == 0 ? 0 : t[0];
        long t1 = n == 0 ? 1 : Math.max(t[n - 1], t0 + 1);
        long max = Math.max(1, Math.max(d.peakReserved(), Math.max(d.peakAllocated(), d.capacity() > 0 && d.capacity() < 4 * Math.max(1, d.peakReserved()) ? d.capacity() : 0)));
        double left = 70;
        double plotW = WIDTH - left - 20;
        double plotH = HEIGHT - 40;
        Svg s = Svg.chart(WIDTH, HEIGHT, "Device memory of GPU " + d.deviceId(),
                "Allocated and reserved memory over " + Units.duration(t1 - t0) + "; peak " + Units.bytes(d.peakAllocated()));
        for (int k = 0; k <= 4; k++) {
            double y = 10 + plotH - plotH * k / 4.0;
            s.empty("line", "x1", left, "x2", WIDTH - 20, "y1", y, "y2", y, "stroke", Palette.GRID);
            s.label(Units.bytes((long) (max * k / 4.0)), "x", left - 4, "y", y + 4, "font-size", 10, "fill", Palette.AXIS, "text-anchor", "end");
        }
        if (d.capacity() > 0 && d.capacity() <= max) {
            double y = 10 + plotH - plotH * d.capacity() / (double) max;
            s.empty("line", "x1", left, "x2", WIDTH - 20, "y1", y, "y2", y, "stroke", Palette.AXIS, "stroke-dasharray", "6 3");
        }
        // in pieces: an attribute value is cut at 2,000 characters like every string of the report
        for (String pts : points(t, d.reserved(), t0, t1, max, left, plotW, plotH)) {
            s.empty("polyline", "points", pts, "fill", "none", "stroke", RESERVED, "stroke-width", 1.5);
        }
        for (String pts : points(t, d.allocated(), t0, t1, max, left, plotW, plotH)) {
            s.empty("polyline", "points", pts, "fill", "none", "stroke", ALLOCATED, "stroke-width", 1.5);
        }
        double px = left + plotW * (d.peakNs() - t0) / (double) (t1 - t0);
        double py = 10 + plotH - plotH * d.peakAllocated() / (double) max;
        s.open("circle", "cx", px, "cy", py, "r", 4, "fill", Palette.ELIGIBLE_NOT_TC);
        s.title("peak " + Units.bytes(d.peakAllocated()) + " at " + Units.duration(d.peakNs() - t0)
                + (d.peakOp() != null ? " in " + d.peakOp() : ""));
        s.close("circle");
        s.label("peak " + Units.bytes(d.peakAllocated()) + (d.peakOp() != null ? " · " + d.peakOp() : ""), "x",
                Math.min(px + 6, WIDTH - 300), "y", Math.max(py - 6, 20), "font-size", 11, "fill", Palette.INK);
        s.label("0", "x", left, "y", HEIGHT - 12, "font-size", 10, "fill", Palette.AXIS);
        s.label(Units.duration(t1 - t0), "x", WIDTH - 20, "y", HEIGHT - 12, "font-size", 10, "fill", Palette.AXIS, "text-anchor", "end");
        s.close("svg");
        return s.toString();
    }

    /** The curve's points as polyline pieces of at most {@value #POINTS_PER_PIECE} points, each starting where the last ended. */
    static List<String> points(long[] t, long[] v, long t0, long t1, long max, double left, double w, double h) {
        List<String> pieces = new ArrayList<>();
        StringBuilder b = new StringBuilder();
        int inPiece = 0;
        for (int i = 0; i < t.length; i++) {
            String p = Svg.num(left + w * (t[i] - t0) / (double) (t1 - t0)) + "," + Svg.num(10 + h - h * v[i] / (double) max);
            if (inPiece > 0) b.append(' ');
            b.append(p);
            if (++inPiece == POINTS_PER_PIECE && i + 1 < t.length) {
                pieces.add(b.toString());
                b.setLength(0);
                b.append(p);
                inPiece = 1;
            }
        }
        if (inPiece > 0) pieces.add(b.toString());
        return pieces;
    }

    static final int POINTS_PER_PIECE = 100;
}
