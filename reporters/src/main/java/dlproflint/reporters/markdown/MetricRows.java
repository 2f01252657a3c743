package dlproflint.reporters.markdown;

import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.KeyMetrics;
import dlproflint.facts.KeyMetrics.Metric;
import dlproflint.facts.ProfileFacts;
import dlproflint.findings.Units;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The metrics table of the markdown report: the profile's {@link KeyMetrics} (the numbers budgets and comparisons
 * use), each with what it is measured over, then the wall time and GPUs for context. A metric the profile does
 * not carry is named as missing, with the reason when the facts tell it, never shown as 0.
 */
final class MetricRows {
    record Row(String label, String value) {
    }

    private MetricRows() {
    }

    static List<Row> of(ProfileFacts f) {
        KeyMetrics m = KeyMetrics.of(f);
        List<Row> rows = new ArrayList<>();
        for (Metric metric : Metric.values()) rows.add(new Row(label(metric), value(metric, m, f)));
        boolean measured = f.breakdown().wallNs() > 0;
        long wall = measured ? f.breakdown().wallNs() : f.profile().wallNs();
        rows.add(new Row(measured ? "Wall time (aggregated range)" : "Wall time (whole profile)",
                wall > 0 ? Units.duration(wall) : "not recorded"));
        rows.add(new Row("GPUs", gpus(f)));
        IterationSummary it = f.iterationSummary();
        if (it.total() > 1 && it.binding() != null) rows.add(new Row("Steps measured on", it.bindingText()));
        if (it.leftOutSteps()) rows.add(new Row("Steady window", it.aggStart() + "-" + it.aggStop() + ": " + it.windowNote()));
        return rows;
    }

    private static String label(Metric metric) {
        return switch (metric) {
            case STEP_TIME -> "Step time (mean)";
            case STEP_TIME_P90 -> "Step time (90th percentile)";
            case GPU_UTILIZATION -> "GPU utilization";
            case TENSOR_CORE_SHARE -> "Tensor-core share of kernel time";
            case DATALOADER_SHARE -> "Data-loader share";
            case HOST_SYNC_SHARE -> "Host blocked in synchronisation";
            case PEAK_MEMORY_SHARE -> "Peak GPU memory";
        };
    }

    private static String value(Metric metric, KeyMetrics m, ProfileFacts f) {
        Double v = m.get(metric);
        if (v == null) return missing(metric, f);
        String text = "ns".equals(metric.unit()) ? Units.duration(v) : Units.share(v);
        return switch (metric) {
            case STEP_TIME -> text + " over " + f.iterationSummary().aggregated() + " of " + f.iterationSummary().total() + " steps ("
                    + f.iterationSummary().howFound() + ")";
            case GPU_UTILIZATION -> text + " of wall time (kernels)";
            case DATALOADER_SHARE, HOST_SYNC_SHARE -> text + " of wall time";
            case PEAK_MEMORY_SHARE -> text + " of device memory";
            default -> text;
        };
    }

    private static String missing(Metric metric, ProfileFacts f) {
        boolean gpuWork = f.hasKernels() || f.gpuUsage().stream().anyMatch(GpuUsage::used);
        return switch (metric) {
            case STEP_TIME, STEP_TIME_P90 -> f.iterationSummary().keyNode() != null && !f.iterationSummary().keyNodeFound()
                    ? "not split into steps (key node " + f.iterationSummary().keyNode() + " not found)"
                    : "not split into steps";
            case GPU_UTILIZATION, TENSOR_CORE_SHARE -> gpuWork ? "not measured" : "no GPU activity recorded";
            case DATALOADER_SHARE -> "no data loader seen";
            case HOST_SYNC_SHARE -> "no synchronisation API calls recorded";
            case PEAK_MEMORY_SHARE -> "not recorded";
        };
    }

    /** "2 × NVIDIA A100-SXM4-80GB (1 without activity)": identical models are counted, not repeated. */
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
