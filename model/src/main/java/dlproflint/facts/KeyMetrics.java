package dlproflint.facts;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The few numbers a CI job asserts and compares across runs, computed once from a profile's facts for budgets,
 * run comparisons, job (multi-rank) summaries and report headers. A metric the profile does not carry is absent
 * from {@link #values()} (never 0): a budget or comparison on it says so instead of passing.
 *
 * @param values metric → value, only the metrics the profile carries
 */
public record KeyMetrics(Map<Metric, Double> values) {
    /** One key metric: its name in configuration files and reports, its unit, and which direction is worse. */
    public enum Metric {
        /** mean duration of the aggregated steps */
        STEP_TIME("step-time", "ns", true),
        /** 90th percentile of the aggregated steps' durations */
        STEP_TIME_P90("step-time-p90", "ns", true),
        /** GPU busy time over the wall clock of the analysed range */
        GPU_UTILIZATION("gpu-utilization", "%", false),
        /** share of kernel time in tensor-core kernels */
        TENSOR_CORE_SHARE("tensor-core-share", "%", false),
        /** share of the analysed range spent in the data loader while no GPU work ran */
        DATALOADER_SHARE("dataloader-share", "%", true),
        /** host time blocked in synchronisation APIs, as a share of the analysed range */
        HOST_SYNC_SHARE("host-sync-share", "%", true),
        /** peak device memory in use, as a share of the largest used GPU's memory */
        PEAK_MEMORY_SHARE("peak-memory-share", "%", true);

        private final String key;
        private final String unit;
        private final boolean higherIsWorse;

        Metric(String key, String unit, boolean higherIsWorse) {
            this.key = key;
            this.unit = unit;
            this.higherIsWorse = higherIsWorse;
        }

        /** The metric's name in configuration files, rule ids ({@code budget/<key>}) and reports. */
        public String key() {
            return key;
        }

        /** {@code ns} or {@code %}. */
        public String unit() {
            return unit;
        }

        /** The unit people write the metric in (configuration files): {@code ms} for durations, else {@link #unit()}. */
        public String configUnit() {
            return "ns".equals(unit) ? "ms" : unit;
        }

        /** A value written in {@link #configUnit()}, in {@link #unit()}. */
        public double fromConfigUnit(double v) {
            return "ns".equals(unit) ? v * 1e6 : v;
        }

        /** Every metric's key, for messages: {@code step-time, step-time-p90, ...}. */
        public static String keys() {
            return String.join(", ", Arrays.stream(values()).map(Metric::key).toList());
        }

        public boolean higherIsWorse() {
            return higherIsWorse;
        }

        /** The metric of a key, or null. */
        public static Metric ofKey(String key) {
            return Arrays.stream(values()).filter(m -> m.key.equals(key)).findFirst().orElse(null);
        }
    }

    private static final String NSYS = "nsys-sqlite";

    public KeyMetrics {
        values = Collections.unmodifiableMap(new EnumMap<>(values.isEmpty() ? new EnumMap<>(Metric.class) : values));
    }

    public Double get(Metric m) {
        return values.get(m);
    }

    public boolean has(Metric m) {
        return values.containsKey(m);
    }

    /** The metrics as facts for rule sessions, in metric order. */
    public List<MetricValue> facts() {
        List<MetricValue> out = new ArrayList<>();
        values.forEach((m, v) -> out.add(new MetricValue(m.key(), v, m.unit())));
        return out;
    }

    public static KeyMetrics of(ProfileFacts f) {
        Map<Metric, Double> v = new EnumMap<>(Metric.class);
        List<Long> steps = new ArrayList<>();
        for (Iteration it : f.iterations()) if (it.aggregated() && it.durationNs() > 0) steps.add(it.durationNs());
        if (f.iterationSummary().total() > 1 && !steps.isEmpty()) {
            v.put(Metric.STEP_TIME, steps.stream().mapToLong(Long::longValue).average().orElse(0));
            v.put(Metric.STEP_TIME_P90, (double) percentile(steps, 90));
        }
        TimeBreakdown b = f.breakdown();
        boolean hasKernels = f.hasKernels() || f.gpuUsage().stream().anyMatch(GpuUsage::used);
        if (b.wallNs() > 0 && hasKernels) {
            v.put(Metric.GPU_UTILIZATION, bounded(b.gpuUtilizationPct()));
            v.put(Metric.TENSOR_CORE_SHARE, bounded(b.tcUtilizationPct()));
        }
        if (b.wallNs() > 0 && (f.dataLoader() != null || b.dataloaderPct() > 0)) {
            v.put(Metric.DATALOADER_SHARE, bounded(b.dataloaderPct()));
        }
        if (!f.syncApiStats().isEmpty()) {
            long wall = f.syncApiStats().get(0).wallNs();
            long blocked = f.syncApiStats().stream().mapToLong(SyncApiStat::totalNs).sum();
            if (wall > 0) v.put(Metric.HOST_SYNC_SHARE, bounded(100.0 * blocked / wall));
        } else if (NSYS.equals(f.profile().format()) && !f.apiStats().isEmpty()) {
            // an nsys export with CUDA API calls records every synchronisation call: none means none
            v.put(Metric.HOST_SYNC_SHARE, 0.0);
        }
        double peak = f.gpus().stream().mapToDouble(GpuInfo::memoryUsedPct).max().orElse(-1);
        if (peak >= 0) v.put(Metric.PEAK_MEMORY_SHARE, bounded(peak));
        return new KeyMetrics(v);
    }

    /** Nearest-rank percentile of the values (1..100). */
    public static long percentile(List<Long> values, int p) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    private static double bounded(double pct) {
        return Double.isFinite(pct) ? Math.max(0, Math.min(100, pct)) : 0;
    }
}
