package dlproflint.reporters.html;

import dlproflint.findings.Units;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.ProfileFacts;
import dlproflint.reporters.html.svg.Palette;
import dlproflint.reporters.html.svg.Part;
import dlproflint.reporters.html.svg.SvgBarChart;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** GPU utilization per device (DLProf's GPU Utilization panel and GPUs view). */
public record GpuPanel(String chart, List<Row> rows, String average, int used) {

    public record Row(String device, String name, String cc, String memory, long kernelCount, String kernels,
                      long kernelNs, String kernelTime, String utilization, double utilizationPct, boolean used) {
    }

    static GpuPanel of(ProfileFacts f) {
        Map<Integer, GpuInfo> infos = new LinkedHashMap<>();
        for (GpuInfo g : f.gpus()) infos.put(g.deviceId(), g);
        Map<Integer, GpuUsage> usage = new LinkedHashMap<>();
        for (GpuUsage u : f.gpuUsage()) usage.put(u.deviceId(), u);
        List<Integer> ids = new ArrayList<>(infos.keySet());
        for (Integer id : usage.keySet()) if (!ids.contains(id)) ids.add(id);
        ids.sort(Integer::compare);

        List<Row> rows = new ArrayList<>();
        List<Part> bars = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        double sum = 0;
        int used = 0;
        for (int id : ids) {
            GpuInfo g = infos.get(id);
            GpuUsage u = usage.get(id);
            boolean isUsed = u != null && u.used();
            double pct = u == null ? 0 : u.utilizationPct();
            String name = g == null ? null : g.name();
            rows.add(new Row(Integer.toString(id), name == null ? "\u2014" : Text.cell(name),
                    g == null || !g.capabilityKnown() ? "\u2014" : g.computeCapability(),
                    g == null || g.totalMemoryBytes() <= 0 ? "\u2014" : Units.memory(g.totalMemoryBytes()),
                    u == null ? 0 : u.kernelCount(), u == null ? "0" : Units.count(u.kernelCount()),
                    u == null ? 0 : u.kernelNs(), u == null ? "\u2014" : Units.duration(u.kernelNs()),
                    isUsed ? Units.share(pct) : "unused", pct, isUsed));
            // the name is in the table; the chart keeps short labels
            String label = "GPU " + id;
            bars.add(new Part(label, pct, Palette.BUSY,
                    label + (name == null ? "" : " (" + name + ")") + ": " + Units.share(pct) + " busy" + (u == null ? "" : ", " + Units.duration(u.busyNs())
                            + " of " + Units.duration(u.spanNs()))));
            labels.add(isUsed ? Units.share(pct) : "unused");
            if (isUsed) {
                sum += pct;
                used++;
            }
        }
        String chart = bars.isEmpty() ? null : SvgBarChart.render("GPU utilization per device", bars, 100, labels, 520);
        return new GpuPanel(chart, rows, used == 0 ? "\u2014" : Units.share(sum / used), used);
    }
}
