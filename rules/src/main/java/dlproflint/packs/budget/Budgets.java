package dlproflint.packs.budget;

import dlproflint.engine.Budget;
import dlproflint.engine.FindingSink;
import dlproflint.findings.Subject;
import org.kie.api.runtime.rule.RuleContext;
import dlproflint.facts.KeyMetrics;
import dlproflint.facts.MetricValue;
import dlproflint.findings.Evidence;
import dlproflint.findings.Message;
import dlproflint.findings.Units;

import java.util.Locale;
import java.util.Map;

/**
 * The {@code budget} pack written once over its metric table: one message, evidence and report for every metric, and
 * per metric only what differs, its label and its recommendation ({@link #row}). Each metric's rule keeps its own id,
 * help page and cases, and its DRL is the one pattern that matches its budget.
 */
public final class Budgets {
    private Budgets() {
    }

    /** What differs between the metrics' rules: how the message names the metric and what to do about it. */
    public record Row(String label, String recommendation) {
    }

    /** The metric table. */
    public static Row row(KeyMetrics.Metric m) {
        return switch (m) {
            case STEP_TIME -> new Row("mean step time",
                    "Read this profile's other findings, ranked by what they cost per step: the largest is where the time went. To see what changed since a faster run, compare the two profiles (dlprof-lint compare BASE HEAD).");
            case STEP_TIME_P90 -> new Row("90th percentile of the step time",
                    "Find the slow steps: `dlprof/bad-iteration-range` names the slowest iteration; periodic work inside the loop (evaluation, checkpointing, logging, garbage collection, data-loader stalls) is the usual cause. Move it out of the step or overlap it.");
            case GPU_UTILIZATION -> new Row("GPU utilization",
                    "Read the findings on what keeps the GPU idle (data loading, synchronisation, pageable copies, launch overhead), ranked by what they cost per step.");
            case TENSOR_CORE_SHARE -> new Row("tensor-core share of kernel time",
                    "Run the model in mixed precision (`dlprof/amp-not-used`), and fix the ops that stay in FP32 or have misaligned shapes (`dlprof/bad-tensor-shape`).");
            case DATALOADER_SHARE -> new Row("data-loader share of the range",
                    "Overlap data loading with compute: more DataLoader workers, pinned memory, prefetching, or NVIDIA DALI (see `dlprof/dataloader-bound`).");
            case HOST_SYNC_SHARE -> new Row("host synchronisation share of the run",
                    "Remove synchronisation from the training step (see `nsys/sync-api`): `.item()`, `.cpu()`, `torch.cuda.synchronize()` and `print(tensor)` inside the loop.");
            case PEAK_MEMORY_SHARE -> new Row("peak GPU memory share",
                    "Over a maximum: lower the batch size, use activation checkpointing or mixed precision (half the activation memory). Under a minimum: a larger batch would use the GPU better (see `dlprof/small-batch-size`).");
        };
    }

    /** Reports a broken budget as its metric's rule. */
    public static void report(FindingSink findings, RuleContext kcontext, Budget b, MetricValue v) {
        Row row = row(b.kind());
        findings.report(kcontext, Subject.metric(b.metric()), message(b, v, row.label()), row.recommendation(), evidence(b, v));
    }

    /**
     * The {@code over-budget} message: {@code mean step time 262.3 ms is above its budget (≤ 250.0 ms, .dlprof-lint.yml:14)
     * by 12.3 ms (4.9%)}.
     */
    public static Message message(Budget b, MetricValue v, String what) {
        double bound = v.value() > (b.max() == null ? Double.MAX_VALUE : b.max()) ? b.max() : b.min();
        boolean above = v.value() > bound;
        double by = Math.abs(v.value() - bound);
        String excess = "ns".equals(v.unit())
                ? Units.duration(by) + (bound > 0 ? " (" + Units.pct(100.0 * by / bound) + ")" : "")
                : String.format(Locale.ROOT, "%.1f percentage points", by);
        return Message.of("over-budget", "what", what, "measured", b.format(v.value()), "direction", above ? "above" : "below",
                "bounds", b.bounds(), "origin", b.origin(), "excess", excess);
    }

    /** The evidence of a broken budget: the metric, its value, both bounds (null when unset), where it was set. */
    public static Map<String, Object> evidence(Budget b, MetricValue v) {
        return Evidence.of("metric", b.metric(), "value", v.value(), "unit", v.unit(), "min", b.min(), "max", b.max(),
                "origin", b.origin());
    }

    /** A budget on a metric the profile does not carry: which one, and why it is missing. */
    public static String unavailable(Budget b) {
        return "the budget on " + b.metric() + " (" + b.bounds() + ", " + b.origin() + ") cannot be checked: " + reason(b.kind());
    }

    public static String howToMeasure(Budget b) {
        return switch (b.kind()) {
            case STEP_TIME, STEP_TIME_P90 -> "Mark each training step with an NVTX range (or profile with the PyTorch profiler's "
                    + "schedule, which records ProfilerStep#N) and pass it as --key-node, or remove the budget for this profile.";
            case GPU_UTILIZATION, TENSOR_CORE_SHARE -> "Profile with CUDA kernel tracing on (nsys profile -t cuda,nvtx; "
                    + "torch.profiler with ProfilerActivity.CUDA).";
            case DATALOADER_SHARE -> "Profile with the PyTorch profiler (it records DataLoader calls) or DLProf, or remove the budget "
                    + "for Nsight Systems exports without data-loader markers.";
            case HOST_SYNC_SHARE -> "Profile with Nsight Systems with CUDA API tracing (nsys profile -t cuda): the other formats do "
                    + "not record synchronisation calls.";
            case PEAK_MEMORY_SHARE -> "Profile with a tool that records device memory in use (DLProf, or nsys with "
                    + "--cuda-memory-usage=true), or remove the budget.";
        };
    }

    /** Why {@link KeyMetrics} has no value for the metric. */
    public static String reason(KeyMetrics.Metric m) {
        return switch (m) {
            case STEP_TIME, STEP_TIME_P90 -> "the profile was not split into training steps";
            case GPU_UTILIZATION, TENSOR_CORE_SHARE -> "the profile records no GPU kernels";
            case DATALOADER_SHARE -> "the profile records no data-loader activity";
            case HOST_SYNC_SHARE -> "the profile records no CUDA synchronisation calls (only Nsight Systems exports with CUDA API tracing do)";
            case PEAK_MEMORY_SHARE -> "the profile does not record the GPU memory in use";
        };
    }
}
