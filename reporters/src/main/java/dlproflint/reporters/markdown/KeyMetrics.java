package dlproflint.reporters.markdown;

import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.TimeBreakdown;
import dlproflint.reporters.Formats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The few numbers a reviewer needs to judge a training run at a glance, each with what it is measured
 * over. A signal the profile does not have is named as missing, never shown as 0.
 */
final class KeyMetrics {
    record Row(String label, String value) {
    }

    private KeyMetrics() {
    }

    static List<Row> of(ProfileFacts f) {
        TimeBreakdown b = f.breakdown();
        boolean measured = b.wallNs() > 0;
        List<Row> rows = new ArrayList<>();
        rows.add(new Row("GPU utilization", gpuUtilization(f, measured)));
        rows.add(new Row("Tensor-core kernel share", !f.hasKernels() ? "no kernels recorded"
                : measured ? Formats.pct(b.tcUtilizationPct()) + " of kernel time" : "not measured"));
        rows.add(new Row("Step time", stepTime(f.iterationSummary())));
        rows.add(new Row("Data-loader share", measured ? Formats.pct(b.dataloaderPct()) + " of wall time" : "not measured"));
        rows.add(new Row("Memory-copy share", measured ? Formats.pct(b.memoryPct()) + " of wall time" : "not measured"));
        rows.add(new Row("Host (CPU) share", measured ? Formats.pct(b.cpuPct()) + " of wall time" : "not measured"));
        long wall = measured ? b.wallNs() : f.profile().wallNs();
        rows.add(new Row(measured ? "Wall time (aggregated range)" : "Wall time (whole profile)",
                wall > 0 ? Formats.duration(wall) : "not recorded"));
        rows.add(new Row("GPUs", gpus(f)));
        return rows;
    }

    private static String gpuUtilization(ProfileFacts f, boolean measured) {
        if (f.gpuUsage().isEmpty() && !f.hasKernels()) return "no GPU activity recorded";
        if (measured) return Formats.pct(f.breakdown().gpuUtilizationPct()) + " (kernel time / wall time)";
        double sum = 0;
        int n = 0;
        for (GpuUsage u : f.gpuUsage()) {
            if (u.used() && Double.isFinite(u.utilizationPct())) {
                sum += u.utilizationPct();
                n++;
            }
        }
        return n == 0 ? "not measured" : Formats.pct(sum / n) + " (mean over " + n + " GPU" + (n == 1 ? "" : "s") + ")";
    }

    private static String stepTime(IterationSummary s) {
        if (s.total() <= 1 || s.avgDurationNs() <= 0) {
            return "not split into steps" + (s.keyNode() != null && !s.keyNodeFound()
                    ? " (key node " + s.keyNode() + " not found)" : "");
        }
        return Formats.duration(s.avgDurationNs()) + " mean over " + s.aggregated() + " of " + s.total()
                + " steps (\u00B1" + Formats.pct(s.variationPct()) + ")";
    }

    /** "2 × NVIDIA A100-SXM4-80GB (1 idle)": identical models are counted, not repeated. */
    private static String gpus(ProfileFacts f) {
        if (f.gpus().isEmpty()) return "none recorded";
        Map<String, Integer> models = new LinkedHashMap<>();
        for (GpuInfo g : f.gpus()) models.merge(g.name() == null ? "unknown GPU" : g.name(), 1, Integer::sum);
        List<String> parts = new ArrayList<>();
        models.forEach((name, count) -> parts.add(count > 1 ? count + " \u00D7 " + name : name));
        long idle = f.gpus().stream().filter(g -> f.gpuUsage().stream()
                .noneMatch(u -> u.deviceId() == g.deviceId() && u.used())).count();
        return String.join(", ", parts) + (idle > 0 && f.hasKernels() ? " (" + idle + " without activity)" : "");
    }
}
