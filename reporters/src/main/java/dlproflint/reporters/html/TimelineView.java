package dlproflint.reporters.html;

import dlproflint.detail.TimelineWindow;
import dlproflint.detail.TimelineWindow.Kind;
import dlproflint.detail.TimelineWindow.Span;
import dlproflint.findings.Units;
import dlproflint.reporters.html.svg.Palette;
import dlproflint.reporters.html.svg.Svg;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Timeline view: a window of steps drawn as SVG, one row per GPU stream (kernels coloured by class, copies,
 * memsets), one idle row per GPU (the gaps where none of its streams ran, those right after a host
 * synchronisation outlined), and rows per CPU thread (ops, nested up to {@value #MAX_DEPTH} deep, kernel launches, and
 * synchronisations, which block the host). Every shape carries its start and end ({@code data-s}, {@code data-e}, µs
 * from the window's start), so the report's script can zoom without a second copy of the data; without the script the
 * whole window is drawn. Colours are presentation attributes (the report's CSP forbids {@code style}).
 *
 * @param svg       the drawing, or null without a window
 * @param legend    what the colours mean
 * @param note      how the window was chosen, what was left out
 * @param syncId    the element id of the host synchronisation followed by the longest GPU idle gap (what a finding
 *                  about host syncs links to), or null
 * @param syncText  that sync and its gap in words, or null
 */
public record TimelineView(String svg, List<LegendItem> legend, String note, String syncId, String syncText) {
    static final int MAX_DEPTH = 4;
    /** A shape's tooltip names it in at most this many characters: a window holds thousands (the Kernels views have the full names). */
    static final int TITLE_CHARS = 80;
    static final double WIDTH = 1100;
    static final double LABEL = 170;
    static final double ROW = 16;
    static final double SUB_ROW = 11;
    /** A GPU idle gap shorter than this share of the window (or 10 µs) is not drawn. */
    static final double MIN_GAP_SHARE = 0.002;

    static final Map<String, String> COLOURS = new LinkedHashMap<>();

    static {
        COLOURS.put("tensor-core kernel", Palette.TC_KERNEL);
        COLOURS.put("GEMM / convolution kernel", Palette.NON_TC_KERNEL);
        COLOURS.put("communication kernel", Palette.DATALOADER);
        COLOURS.put("other kernel", Palette.IO);
        COLOURS.put("memcpy", Palette.MEMORY);
        COLOURS.put("memset", "#f0e442");
        COLOURS.put("kernel or copy launch", Palette.CPU);
        COLOURS.put("host synchronisation", Palette.ELIGIBLE_NOT_TC);
        COLOURS.put("CPU op", Palette.OTHER);
        COLOURS.put("GPU idle", "#f4c7b8");
    }

    static TimelineView none(String why) {
        return new TimelineView(null, List.of(), why, null, null);
    }

    static String colour(Span s) {
        return switch (s.kind()) {
            case KERNEL -> COLOURS.get(kernelGroup(s.category()));
            case MEMCPY -> COLOURS.get("memcpy");
            case MEMSET -> COLOURS.get("memset");
            case LAUNCH -> COLOURS.get("kernel or copy launch");
            case SYNC -> COLOURS.get("host synchronisation");
            case OP -> COLOURS.get("CPU op");
        };
    }

    static String kernelGroup(String category) {
        String c = category == null ? "" : category.toLowerCase(Locale.ROOT);
        if (c.equals("tensor-core")) return "tensor-core kernel";
        if (c.contains("nccl") || c.contains("comm") || c.contains("rccl")) return "communication kernel";
        if (c.contains("gemm") || c.contains("conv") || c.contains("cutlass") || c.contains("cublas")) return "GEMM / convolution kernel";
        return "other kernel";
    }

    /** A GPU idle interval, and the host sync it followed (or null). */
    record Gap(int device, long start, long end, Span after) {
    }

    static TimelineView of(String pid, TimelineWindow w, String note) {
        if (w == null) return none(note == null ? "This format has no per-launch data to draw." : note);
        if (w.spans().isEmpty()) {
            return none("No operation was recorded in the window (" + Text.clean(w.why()) + ").");
        }
        long t0 = w.startNs();
        long t1 = Math.max(w.endNs(), t0 + 1);
        double scale = (WIDTH - LABEL - 10) / (double) (t1 - t0);
        List<TimelineWindow.Lane> lanes = w.lanes();
        // rows: each lane one row; CPU lanes one sub-row per nesting depth; one idle row per GPU after its streams
        int[] depth = new int[w.spans().size()];
        int[] laneDepth = new int[lanes.size()];
        nesting(w, depth, laneDepth);
        List<Gap> gaps = gaps(w, t1 - t0);
        List<Integer> devices = lanes.stream().filter(TimelineWindow.Lane::gpu).map(TimelineWindow.Lane::device).distinct().toList();
        double[] laneY = new double[lanes.size()];
        Map<Integer, Double> idleY = new LinkedHashMap<>();
        double y = 26;
        for (int i = 0; i < lanes.size(); i++) {
            TimelineWindow.Lane l = lanes.get(i);
            laneY[i] = y;
            y += l.gpu() ? ROW : Math.max(1, Math.min(MAX_DEPTH, laneDepth[i] + 1)) * SUB_ROW + 5;
            boolean lastOfDevice = l.gpu() && (i + 1 == lanes.size() || !lanes.get(i + 1).gpu() || lanes.get(i + 1).device() != l.device());
            if (lastOfDevice) {
                idleY.put(l.device(), y);
                y += ROW;
            }
        }
        double height = y + 24;
        Svg s = Svg.chart(WIDTH, height, "Timeline of " + w.steps().size() + " steps", Text.clean(w.why()));
        // data-origin: the window's start in the profile's own time (µs), so a shape can be found in the profile again
        s.open("g", "class", "tl-plot", "data-origin", micros(t0), "data-t0", 0, "data-t1", micros(t1 - t0), "data-x0", LABEL,
                "data-w", WIDTH - LABEL - 10);
        // steps
        for (TimelineWindow.Step st : w.steps()) {
            double x = LABEL + (st.startNs() - t0) * scale;
            double wd = Math.max(0.5, (st.endNs() - st.startNs()) * scale);
            boolean focus = st.index() == w.focusStep();
            s.open("rect", "class", "tl-s", "x", x, "y", 4, "width", wd, "height", 16, "fill", focus ? Palette.AGGREGATED_BAND : "#f4f5f7",
                    "stroke", Palette.GRID, "data-s", micros(st.startNs() - t0), "data-e", micros(st.endNs() - t0));
            s.title("step " + st.index() + ": " + Units.duration(st.endNs() - st.startNs()) + (focus ? " (the chosen step)" : ""));
            s.close("rect");
            s.label("step " + st.index(), "class", "tl-sl", "x", x + 3, "y", 16, "font-size", 10, "fill", Palette.INK,
                    "data-s", micros(st.startNs() - t0));
        }
        // lane labels and separators
        s.open("g", "class", "tl-labels");
        for (int i = 0; i < lanes.size(); i++) {
            s.label(lanes.get(i).label(), "x", 4, "y", laneY[i] + 11, "font-size", 10, "fill", Palette.INK);
        }
        for (Map.Entry<Integer, Double> e : idleY.entrySet()) {
            s.label("GPU " + e.getKey() + " idle", "x", 4, "y", e.getValue() + 11, "font-size", 10, "fill", Palette.AXIS);
        }
        s.close("g");
        // spans
        s.open("g", "class", "tl-spans");
        for (int i = 0; i < w.spans().size(); i++) {
            Span sp = w.spans().get(i);
            boolean gpu = lanes.get(sp.lane()).gpu();
            double yy = gpu ? laneY[sp.lane()] + 1 : laneY[sp.lane()] + Math.min(MAX_DEPTH - 1, depth[i]) * SUB_ROW;
            double h = gpu ? ROW - 3 : SUB_ROW - 2;
            rect(s, sp, t0, scale, yy, h, null);
        }
        s.close("g");
        // idle gaps, and the sync with the longest gap after it
        Gap worst = null;
        s.open("g", "class", "tl-gaps");
        for (Gap g : gaps) {
            Double gy = idleY.get(g.device());
            if (gy == null) continue;
            boolean afterSync = g.after() != null;
            if (afterSync && (worst == null || g.end() - g.start() > worst.end() - worst.start())) worst = g;
            s.open("rect", "x", LABEL + (g.start() - t0) * scale, "y", gy + 1,
                    "width", Math.max(0.5, (g.end() - g.start()) * scale), "height", ROW - 3, "fill", COLOURS.get("GPU idle"),
                    "stroke", afterSync ? Palette.ELIGIBLE_NOT_TC : null, "data-s", micros(g.start() - t0), "data-e", micros(g.end() - t0));
            s.title("GPU " + g.device() + " idle " + Units.duration(g.end() - g.start())
                    + (afterSync ? " after " + g.after().name() : ""));
            s.close("rect");
        }
        s.close("g");
        String syncId = null;
        String syncText = null;
        if (worst != null) {
            syncId = pid + "-tl-sync";
            Span sync = worst.after();
            s.open("g", "id", syncId, "class", "tl-focus", "data-s", micros(Math.min(sync.startNs(), worst.start()) - t0),
                    "data-e", micros(worst.end() - t0));
            Double gy = idleY.get(worst.device());
            double syncTop = laneY[sync.lane()];
            double top = gy == null ? syncTop : Math.min(syncTop, gy);
            double bottom = Math.max(syncTop + SUB_ROW, gy == null ? 0 : gy + ROW);
            double x = LABEL + (sync.startNs() - t0) * scale;
            double wd = Math.max(2, (worst.end() - sync.startNs()) * scale);
            s.open("rect", "x", x, "y", top - 1, "width", wd, "height", bottom - top + 2,
                    "fill", "none", "stroke", Palette.INK, "stroke-width", 1.5, "stroke-dasharray", "4 2",
                    "data-s", micros(sync.startNs() - t0), "data-e", micros(worst.end() - t0));
            syncText = sync.name() + " (" + Units.duration(sync.endNs() - sync.startNs()) + " on the host) and the GPU idle "
                    + Units.duration(worst.end() - worst.start()) + " after it";
            s.title(syncText);
            s.close("rect");
            s.close("g");
        }
        // time axis
        s.open("g", "class", "tl-axis");
        for (int k = 0; k <= 5; k++) {
            double x = LABEL + (WIDTH - LABEL - 10) * k / 5.0;
            s.empty("line", "x1", x, "x2", x, "y1", 22, "y2", height - 20, "stroke", Palette.GRID);
            s.label(Units.duration((long) ((t1 - t0) * k / 5.0)), "x", x, "y", height - 6, "font-size", 10, "fill", Palette.AXIS,
                    "text-anchor", k == 0 ? "start" : k == 5 ? "end" : "middle");
        }
        s.close("g");
        s.close("g");
        s.close("svg");
        List<LegendItem> legend = new ArrayList<>();
        for (Map.Entry<String, String> c : COLOURS.entrySet()) legend.add(new LegendItem(dlproflint.reporters.html.svg.SvgStackedBar.swatch(c.getValue()), c.getKey(), null, null));
        StringBuilder n = new StringBuilder(Text.clean(w.why())).append(": ").append(Units.duration(t1 - t0)).append(", ")
                .append(w.spans().size()).append(" operations on ").append(devices.size()).append(devices.size() == 1 ? " GPU" : " GPUs")
                .append(" and ").append(lanes.stream().filter(l -> !l.gpu()).count()).append(" CPU threads");
        if (w.dropped() > 0) n.append("; ").append(w.dropped()).append(" more operations in the window were left out (the view holds ")
                .append(TimelineWindow.MAX_SPANS).append(")");
        n.append(". GPU idle gaps shorter than ").append(Units.duration(minGap(t1 - t0))).append(" are not drawn.");
        return new TimelineView(s.toString(), legend, n.toString(), syncId, syncText);
    }

    private static void rect(Svg s, Span sp, long t0, double scale, double y, double h, String stroke) {
        s.open("rect", "x", LABEL + (sp.startNs() - t0) * scale, "y", y,
                "width", Math.max(0.5, (sp.endNs() - sp.startNs()) * scale), "height", h, "fill", colour(sp), "stroke", stroke,
                "data-s", micros(sp.startNs() - t0), "data-e", micros(sp.endNs() - t0));
        // names cut to a table cell's length: a window holds thousands of them (the full name is in the Kernels views)
        s.title(Text.truncate(Text.clean(sp.name()), TITLE_CHARS) + " · " + Units.duration(sp.endNs() - sp.startNs()));
        s.close("rect");
    }

    /** Microseconds with one decimal, the unit the script zooms in. */
    static String micros(long ns) {
        return Svg.num(ns / 1000.0);
    }

    static long minGap(long windowNs) {
        return Math.max(10_000L, (long) (windowNs * MIN_GAP_SHARE));
    }

    /** Nesting depth of every CPU span on its lane (GPU spans are 0), and each lane's deepest. */
    private static void nesting(TimelineWindow w, int[] depth, int[] laneDepth) {
        Map<Integer, List<Long>> openEnds = new LinkedHashMap<>();
        for (int i = 0; i < w.spans().size(); i++) {
            Span s = w.spans().get(i);
            if (w.lanes().get(s.lane()).gpu()) continue;
            List<Long> open = openEnds.computeIfAbsent(s.lane(), k -> new ArrayList<>());
            open.removeIf(end -> end <= s.startNs());
            depth[i] = open.size();
            laneDepth[s.lane()] = Math.max(laneDepth[s.lane()], depth[i]);
            open.add(s.endNs());
        }
    }

    /**
     * Where each GPU ran nothing on any stream, for at least {@link #minGap}; a gap that begins while the host is in
     * a synchronisation, or ends one, follows that sync (the host waited for the GPU to drain, then the GPU waited for
     * the host).
     */
    static List<Gap> gaps(TimelineWindow w, long windowNs) {
        long min = minGap(windowNs);
        Map<Integer, List<long[]>> busy = new LinkedHashMap<>();
        List<Span> syncs = new ArrayList<>();
        for (Span s : w.spans()) {
            TimelineWindow.Lane l = w.lanes().get(s.lane());
            if (l.gpu()) busy.computeIfAbsent(l.device(), d -> new ArrayList<>()).add(new long[] {s.startNs(), s.endNs()});
            else if (s.kind() == Kind.SYNC) syncs.add(s);
        }
        List<Gap> out = new ArrayList<>();
        for (Map.Entry<Integer, List<long[]>> e : busy.entrySet()) {
            List<long[]> iv = e.getValue();
            iv.sort(Comparator.comparingLong(a -> a[0]));
            long end = Math.max(w.startNs(), iv.get(0)[0]);
            for (long[] b : iv) {
                if (b[0] - end >= min) out.add(new Gap(e.getKey(), end, b[0], syncBefore(syncs, end, b[0])));
                end = Math.max(end, b[1]);
            }
        }
        return out;
    }

    private static Span syncBefore(List<Span> syncs, long gapStart, long gapEnd) {
        Span best = null;
        for (Span s : syncs) {
            boolean waiting = s.startNs() <= gapStart && s.endNs() >= gapStart;
            boolean endsInGap = s.endNs() >= gapStart && s.endNs() <= gapEnd && s.startNs() <= gapStart + (gapEnd - gapStart) / 2;
            if ((waiting || endsInGap) && (best == null || s.endNs() - s.startNs() > best.endNs() - best.startNs())) best = s;
        }
        return best;
    }
}
