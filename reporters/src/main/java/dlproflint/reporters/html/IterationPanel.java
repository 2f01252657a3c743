package dlproflint.reporters.html;

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
 * stays readable and the file small; the table below lists the iterations themselves.
 */
public record IterationPanel(String chart, List<LegendItem> legend, List<Row> rows, int total, String rangeText,
                             String binNote) {
    static final int MAX_COLUMNS = 200;
    static final int MAX_ROWS = 300;

    public record Row(int index, long durationNs, String duration, long kernels, String kernelsText, long gpuNs,
                      String gpuTime, long tcNs, String tcTime, long memoryNs, String memoryTime,
                      double gpuPct, String gpuShare, boolean aggregated) {
    }

    /** @param devices GPUs that ran work: the GPU share of an iteration is the per-GPU average, as DLProf shows it */
    static IterationPanel of(List<Iteration> iterations, IterationSummary summary, int devices) {
        if (iterations.isEmpty()) return new IterationPanel(null, List.of(), List.of(), 0, null, null);
        String range = aggregatedRange(iterations, summary);
        int n = iterations.size();
        int bin = (int) Math.ceil(n / (double) MAX_COLUMNS);
        List<SvgStackedBars.Column> cols = new ArrayList<>();
        for (int start = 0; start < n; start += bin) {
            List<Iteration> group = iterations.subList(start, Math.min(n, start + bin));
            cols.add(column(group));
        }
        List<String> colors = List.of(Palette.TC_KERNEL, Palette.NON_TC_KERNEL, Palette.MEMORY);
        String chart = SvgStackedBars.render("GPU time per iteration",
                "Stacked bars: tensor-core kernel, other kernel and memory time per iteration; a black tick marks the "
                        + "iteration duration; the shaded band is the aggregated range " + range + ".",
                colors, cols, "aggregated " + range, Fmt::duration, 1160, 300);
        List<LegendItem> legend = List.of(
                new LegendItem(SvgStackedBar.swatch(Palette.TC_KERNEL), "Tensor-core kernels", null, null),
                new LegendItem(SvgStackedBar.swatch(Palette.NON_TC_KERNEL), "Other kernels", null, null),
                new LegendItem(SvgStackedBar.swatch(Palette.MEMORY), "Memory (memcpy/memset)", null, null),
                new LegendItem(SvgStackedBar.swatch(Palette.INK), "Iteration duration (tick)", null, null),
                new LegendItem(SvgStackedBar.swatch(Palette.AGGREGATED_BAND), "Aggregated range", null, null));
        int gpus = Math.max(1, devices);
        List<Row> rows = iterations.stream().limit(MAX_ROWS).map(it -> row(it, gpus)).toList();
        String note = bin > 1 ? "Each bar shows the mean of " + bin + " consecutive iterations." : null;
        return new IterationPanel(chart, legend, rows, n, range, note);
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
                + (agg ? ", aggregated" : "") + "\nDuration: " + Fmt.duration(dur)
                + "\nTensor-core kernels: " + Fmt.duration(tc) + "\nOther kernels: " + Fmt.duration(nonTc)
                + "\nMemory: " + Fmt.duration(mem);
        return new SvgStackedBars.Column(Integer.toString(first.index()), new double[]{tc, nonTc, mem}, dur, agg, tip);
    }

    private static Row row(Iteration it, int gpus) {
        long dur = Math.max(0, it.durationNs());
        // kernel time summed over the GPUs, averaged per GPU, over the iteration's wall time; kernels on
        // concurrent streams of one GPU overlap (the iteration keeps no merged busy time), so the share
        // of the wall time stops at 100 %
        double pct = dlproflint.facts.Percent.of((double) it.gpuTimeNs() / gpus, dur);
        return new Row(it.index(), dur, Fmt.duration(dur), it.kernelCount(), Fmt.count(it.kernelCount()),
                it.gpuTimeNs(), Fmt.duration(it.gpuTimeNs()), it.tcTimeNs(), Fmt.duration(it.tcTimeNs()),
                it.memoryTimeNs(), Fmt.duration(it.memoryTimeNs()), pct, Fmt.pct(pct), it.aggregated());
    }
}
