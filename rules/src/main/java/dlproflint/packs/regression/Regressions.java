package dlproflint.packs.regression;

import dlproflint.compare.DeltaText;
import dlproflint.compare.RunComparison;
import dlproflint.engine.FindingSink;
import dlproflint.findings.Evidence;
import dlproflint.findings.Message;
import dlproflint.findings.Subject;
import org.kie.api.runtime.rule.RuleContext;
import dlproflint.facts.Comparison;
import dlproflint.facts.KernelDelta;
import dlproflint.facts.MetricDelta;
import dlproflint.facts.OpDelta;
import dlproflint.packs.cost.RegressionCost;
import dlproflint.findings.Units;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Stream;

/** Message and impact helpers of the regression pack (numbers written with {@link Units}). */
public final class Regressions {
    private Regressions() {
    }

    /** "102.3 ms → 118.9 ms (+16.2%)" or, for shares, "71.0% → 52.4% (-18.6 points)". */
    public static String change(MetricDelta d) {
        return DeltaText.value(d, d.baseCenter()) + " → " + DeltaText.value(d, d.headCenter()) + " (" + DeltaText.relative(d) + ")";
    }

    /**
     * Whether a step-time change is the host's alone: one capture a side, and the kernel time per step (what the GPU
     * ran) grew by less than {@code minPct} of the base step (or not at all). False where the split is unknown.
     */
    public static boolean hostGapsOnly(Comparison c, MetricDelta step, double minPct) {
        if (step.betweenRuns()) return false;
        MetricDelta k = c.metric(RunComparison.KERNEL_TIME);
        return k != null && k.present() && k.worseBy() < minPct / 100.0 * Math.abs(step.baseCenter());
    }

    /** The per-step value of a part of the comparison ({@code gpu-kernel-time}, {@code host-gaps}): "10.0 ms → 10.1 ms (+1.0%)". */
    public static String part(Comparison c, String metric) {
        MetricDelta d = c.metric(metric);
        return d == null || !d.present() ? "not measured" : change(d);
    }

    /** The base's (or head's) per-step center of a part of the comparison, NaN when it was not measured. */
    public static double center(Comparison c, String metric, boolean base) {
        MetricDelta d = c.metric(metric);
        return d == null ? Double.NaN : base ? d.baseCenter() : d.headCenter();
    }

    /** How the change was judged: against the noise between runs or between steps, or as single values. */
    public static String basis(MetricDelta d) {
        if (d.betweenRuns()) {
            return String.format(Locale.ROOT, "medians of %d and %d runs (%d and %d steps); %s the between-run spread of %s",
                    d.baseRuns(), d.headRuns(), d.baseSamples(), d.headSamples(), times(d.worseBySpreads()), Units.duration(d.spread()))
                    + (Double.isNaN(d.pValue()) ? "" : String.format(Locale.ROOT, "; rank test of the runs p = %.2g", d.pValue()));
        }
        if (d.samples() == 0) return "single values: the profiles were not split into steps";
        return String.format(Locale.ROOT, "medians of %d and %d steps; %s the run-to-run spread of %s",
                d.baseSamples(), d.headSamples(), times(d.worseBySpreads()), Units.duration(d.spread()))
                + (Double.isNaN(d.pValue()) ? "" : String.format(Locale.ROOT, "; rank test p = %.2g", d.pValue()));
    }

    /** Recommendation of the step-time metrics' rules: the same for the median and the tail. */
    private static final String STEP_ADVICE = "Find what made the step slower: the ops and kernels whose GPU time per step grew most are listed in the "
            + "comparison (and reported as regression/op-time or regression/kernel-time when they grew beyond "
            + "their tolerance); check the change under review for new synchronisation, a smaller batch or a lost "
            + "mixed-precision setting. If the slowdown is intended, record the new profile as the base.";

    /**
     * What differs between the rules over one metric of the comparison: how the message names the metric, which way is
     * worse, and what to do about it. The rules' message templates, evidence and reports are written once, below.
     */
    public record Row(String label, String direction, String recommendation) {
    }

    /**
     * The regression pack's metric table: each rule keeps its own id, thresholds, help page and cases, and its DRL is
     * the pattern that selects its metric's delta; what it reports is this row and the shared report of its kind
     * ({@link #reportStep}, {@link #reportShare}, {@link #reportGrowth}).
     */
    public static Row row(String metric) {
        return switch (metric) {
            case "step-time" -> new Row("step time", "rose", STEP_ADVICE);
            case "step-time-p90" -> new Row("step time p90", "rose", STEP_ADVICE);
            case "op-time" -> new Row("op GPU time", "rose",
                    "Look at what changed for this op in the change under review: its input shapes and data type (a lost "
                            + "autocast makes FP32 kernels), the kernels it now launches (listed as appeared/vanished in the "
                            + "comparison) and how often it is called per step.");
            case "kernel-time" -> new Row("kernel GPU time", "rose",
                    "Find the op that launches it%s and what changed for it: a different data type or shape selects other "
                            + "kernels, and a new kernel often means a new code path or a lost fusion.");
            case "gpu-utilization" -> new Row("GPU utilization", "fell",
                    "Look for what the GPU now waits on: compare the dataloader and host-sync shares of the two runs, and the GPU gaps of the head (dlprof-lint HEAD).");
            case "tensor-core-share" -> new Row("Tensor-core share", "fell",
                    "Check that mixed precision is still enabled (torch.autocast / mixed_float16 policy) for the ops listed as new FP32 kernels, and that tensor shapes stay multiples of 8.");
            case "dataloader-share" -> new Row("Data-loader share", "rose",
                    "Check the input pipeline changes under review: DataLoader num_workers, pin_memory, prefetch_factor, new transforms.");
            case "host-sync-share" -> new Row("Host-sync share", "rose",
                    "Find the new synchronisation: torch.cuda.set_sync_debug_mode(\"warn\") names the line; lint the head profile for nsys/sync-api findings.");
            case "peak-memory-share" -> new Row("Peak GPU memory share", "rose",
                    "Check for larger activations (batch, sequence length), tensors kept across steps, or a disabled activation checkpointing.");
            default -> throw new IllegalArgumentException("no regression metric '" + metric + "'");
        };
    }

    /**
     * Reports a step-time metric ({@code step-time}, {@code step-time-p90}) that grew beyond its tolerance and the
     * noise as the firing rule: its {@code regressed} message, the step evidence, the median shift as the cost.
     */
    public static void reportStep(FindingSink findings, RuleContext kcontext, Comparison c, MetricDelta d, double minPct, double noiseFactor) {
        findings.report(kcontext, Subject.profile(),
                Message.of("regressed", "change", change(d), "basis", basis(d)),
                row(d.metric()).recommendation(),
                Evidence.of(stepEvidence(d, "minChangePct", minPct, "noiseFactor", noiseFactor)),
                RegressionCost.of(c, d));
    }

    /** The evidence of a step-time change (metric, centers, change, noise), then the rule's own pairs. */
    public static Object[] stepEvidence(MetricDelta d, Object... more) {
        Object[] head = {"metric", d.metric(), "base", d.baseCenter(), "head", d.headCenter(),
                "changePct", d.worseByPct(), "spread", d.spread(), "spreads", d.worseBySpreads(),
                "baseSteps", d.baseSamples(), "headSteps", d.headSamples(), "pValue", d.pValue()};
        return Stream.concat(Arrays.stream(head), Arrays.stream(more)).toArray();
    }

    /**
     * Reports a share metric that moved beyond its tolerance ({@code minParam}, the rule's parameter of that name) as
     * the firing rule: one message, evidence and recommendation for every share metric.
     */
    public static void reportShare(FindingSink findings, RuleContext kcontext, MetricDelta d, String minParam, double min) {
        Row row = row(d.metric());
        findings.report(kcontext, Subject.profile(),
                Message.of("regressed", "label", row.label(), "direction", row.direction(), "change", change(d)),
                row.recommendation(),
                Evidence.of("metric", d.metric(), "base", d.baseCenter(), "head", d.headCenter(), "changePoints", d.worseBy(),
                        minParam, min));
    }

    /** Reports an op whose GPU time per step grew beyond {@code regression/op-time}'s tolerances. */
    public static void reportGrowth(FindingSink findings, RuleContext kcontext, Comparison c, OpDelta d, double minPct, double minShare) {
        findings.report(kcontext, Subject.op(d.headId(), d.key()),
                Message.of("grew", "key", d.key(), "headNs", Units.duration(d.headNs()), "per", per(c),
                        "baseNs", Units.duration(d.baseNs()), "ratio", ratio(d.ratio()),
                        "growth", Units.duration(d.growthNs()), "shareOfBaseStep", Units.pct(d.growthStepPct())),
                row("op-time").recommendation(),
                Evidence.of("op", d.key(), "baseNsPerStep", d.baseNs(), "headNsPerStep", d.headNs(),
                        "ratio", d.ratio(), "growthNs", d.growthNs(), "growthStepPct", d.growthStepPct(),
                        "samples", d.samples(), "minChangePct", minPct, "minStepSharePct", minShare),
                RegressionCost.of(c, d));
    }

    /** Reports a kernel that appeared or whose GPU time per step grew beyond {@code regression/kernel-time}'s tolerances. */
    public static void reportGrowth(FindingSink findings, RuleContext kcontext, Comparison c, KernelDelta d, double minPct, double minShare) {
        String tcClause = d.baseTc() && !d.headTc() ? "; it no longer runs on tensor cores"
                : d.headTc() && !d.baseTc() && !d.appeared() ? "; it now runs on tensor cores" : "";
        findings.report(kcontext, Subject.kernel(d.name()),
                Message.of(d.appeared() ? "appeared" : "grew", "headNs", Units.duration(d.headNs()), "per", per(c),
                        "baseNs", Units.duration(d.baseNs()), "growth", Units.pct(d.growthPct()),
                        "shareOfBaseStep", Units.pct(d.growthStepPct()), "tcClause", tcClause),
                String.format(Locale.ROOT, row("kernel-time").recommendation(), d.headOpId() == null ? "" : " (" + d.headOpId() + ")"),
                Evidence.of("kernel", d.key(), "baseNsPerStep", d.baseNs(), "headNsPerStep", d.headNs(),
                        "appeared", d.appeared(), "growthStepPct", d.growthStepPct(), "baseTensorCores", d.baseTc(),
                        "headTensorCores", d.headTc(), "minChangePct", minPct, "minStepSharePct", minShare),
                RegressionCost.of(c, d));
    }

    /** "per step" or "per run". */
    public static String per(Comparison c) {
        return "step".equals(c.basis()) ? "per step" : "per run";
    }

    /** "3.0×", "a new op" when it had no time before. */
    public static String ratio(double r) {
        return Double.isInfinite(r) ? "new" : String.format(Locale.ROOT, "%.1f×", r);
    }

    /** "5.5×" for a finite multiple, "far above" when there was no spread to compare with. */
    public static String times(double spreads) {
        return Double.isInfinite(spreads) ? "far above" : String.format(Locale.ROOT, "%.1f×", spreads);
    }
}
