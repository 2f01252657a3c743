package dlproflint.reporters.html;

import dlproflint.findings.Units;
import dlproflint.facts.Iteration;
import dlproflint.facts.IterationSummary;
import dlproflint.reporters.html.svg.Palette;
import dlproflint.reporters.html.svg.SvgStackedBar;
import dlproflint.reporters.html.svg.SvgStackedBars;

import java.util.ArrayList;
import java.util.List;

/**
 * DLProf's Iteration Summary panel as a static chart: per iteration, the GPU time of tensor-core
 * kernels, other kernels and memory operations stacked, the iteration's duration as a tick above
 * (the gap is GPU idle time), and the aggregation range shaded. Long runs are binned so the chart
 * stays readable and the file small; the Iterations view's table lists the iterations themselves.
 */
public record IterationPanel(String chart, List<LegendItem> legend, int total, String rangeText, String binNote) {
    /** Bars of the Iterations view's chart. */
    static final int VIEW_COLUMNS = 200;
    /** Bars of the dashboard's chart (a summary: the view has the detail). */
    static final int DASHBOARD_COLUMNS = 60;

    static IterationPanel of(List<Iteration> iterations, IterationSummary summary, int maxColumns) {
        if (iterations.isEmpty()) return new IterationPanel(null, List.of(), 0, null, null);
        String range = aggregatedRange(iterations, summary);
        int n = iterations.size();
        int bin = (int) Math.ceil(n / (double) maxColumns);
        List<SvgStackedBars.Column> cols = new ArrayList<>();
        for (int start = 0; start < n; start += bin) {
            List<Iteration> group = iterations.subList(start, Math.min(n, start + bin));
            cols.add(column(group));
        }
        List<String> colors = List.of(Palette.TC_KERNEL, Palette.NON_TC_KERNEL, Palette.MEMORY);
        String chart = SvgStackedBars.render("GPU time per iteration",
                "Stacked bars: tensor-core kernel, other kernel and memory time per iteration; a black tick marks the "
                        + "iteration duration; the shaded band is the aggregated range " + range + ".",
                colors, cols, "aggregated " + range, Units::duration, 1160, 300);
        List<LegendItem> legend = List.of(
                new LegendItem(SvgStackedBar.swatch(Palette.TC_KERNEL), "Tensor-core kernels", null, null),
                new LegendItem(SvgStackedBar.swatch(Palette.NON_TC_KERNEL), "Other kernels", null, null),
                new LegendItem(SvgStackedBar.swatch(Palette.MEMORY), "Memory (memcpy/memset)", null, null),
                new LegendItem(SvgStackedBar.swatch(Palette.INK), "Iteration duration (tick)", null, null),
                new LegendItem(SvgStackedBar.swatch(Palette.AGGREGATED_BAND), "Aggregated range", null, null));
        String note = bin > 1 ? "Each bar shows the mean of " + bin + " consecutive iterations." : null;
        return new IterationPanel(chart, legend, n, range, note);
    }

    private static String aggregatedRange(List<Iteration> its, IterationSummary s) {
        int first = -1, last = -1;
        for (Iteration it : its) {
            if (!it.aggregated()) continue;
            if (first < 0) first = it.index();
            last = it.index();
        }
        if (first < 0 && s != null && s.total() > 0) {
            first = s.aggStart();
            last = s.aggStop();
        }
        return first < 0 ? "(none)" : first == last ? "iteration " + first : "iterations " + first + "\u2013" + last;
    }

    private static SvgStackedBars.Column column(List<Iteration> group) {
        double tc = 0, nonTc = 0, mem = 0, dur = 0;
        boolean agg = false;
        for (Iteration it : group) {
            tc += it.tcTimeNs();
            nonTc += Math.max(0, it.nonTcTimeNs());
            mem += it.memoryTimeNs();
            dur += Math.max(0, it.durationNs());
            agg |= it.aggregated();
        }
        int k = group.size();
        tc /= k;
        nonTc /= k;
        mem /= k;
        dur /= k;
        Iteration first = group.get(0);
        Iteration last = group.get(k - 1);
        String label = k == 1 ? Integer.toString(first.index()) : first.index() + "\u2013" + last.index();
        String tip = (k == 1 ? "Iteration " + label : "Iterations " + label + " (mean)")
                + (agg ? ", aggregated" : "") + "\nDuration: " + Units.duration(dur)
                + "\nTensor-core kernels: " + Units.duration(tc) + "\nOther kernels: " + Units.duration(nonTc)
                + "\nMemory: " + Units.duration(mem);
        return new SvgStackedBars.Column(Integer.toString(first.index()), new double[]{tc, nonTc, mem}, dur, agg, tip);
    }
}
