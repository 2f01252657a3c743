package dlproflint.packs.regression;

import dlproflint.compare.DeltaText;
import dlproflint.engine.FindingSink;
import dlproflint.findings.Evidence;
import dlproflint.findings.Message;
import dlproflint.findings.Subject;
import org.kie.api.runtime.rule.RuleContext;
import dlproflint.facts.Comparison;
import dlproflint.facts.MetricDelta;
import dlproflint.findings.Units;

import java.util.Locale;

/** Message and impact helpers of the regression pack (numbers written with {@link Units}). */
public final class Regressions {
    private Regressions() {
    }

    /** "102.3 ms → 118.9 ms (+16.2%)" or, for shares, "71.0% → 52.4% (-18.6 points)". */
    public static String change(MetricDelta d) {
        return DeltaText.value(d, d.baseCenter()) + " → " + DeltaText.value(d, d.headCenter()) + " (" + DeltaText.relative(d) + ")";
    }

    /** How the change was judged: against the per-step noise, or as single values. */
    public static String basis(MetricDelta d) {
        if (d.samples() == 0) return "single values: the profiles were not split into steps";
        return String.format(Locale.ROOT, "medians of %d and %d steps; %s the run-to-run spread of %s",
                d.baseSamples(), d.headSamples(), times(d.worseBySpreads()), Units.duration(d.spread()))
                + (Double.isNaN(d.pValue()) ? "" : String.format(Locale.ROOT, "; rank test p = %.2g", d.pValue()));
    }

    /** What differs between the share metrics' rules: the metric's label, which way is worse, what to do about it. */
    public record ShareRow(String label, String direction, String recommendation) {
    }

    /** The share metrics' table: the rules over them are written once, here, and differ only by this row. */
    public static ShareRow shareRow(String metric) {
        return switch (metric) {
            case "gpu-utilization" -> new ShareRow("GPU utilization", "fell",
                    "Look for what the GPU now waits on: compare the dataloader and host-sync shares of the two runs, and the GPU gaps of the head (dlprof-lint HEAD).");
            case "tensor-core-share" -> new ShareRow("Tensor-core share", "fell",
                    "Check that mixed precision is still enabled (torch.autocast / mixed_float16 policy) for the ops listed as new FP32 kernels, and that tensor shapes stay multiples of 8.");
            case "dataloader-share" -> new ShareRow("Data-loader share", "rose",
                    "Check the input pipeline changes under review: DataLoader num_workers, pin_memory, prefetch_factor, new transforms.");
            case "host-sync-share" -> new ShareRow("Host-sync share", "rose",
                    "Find the new synchronisation: torch.cuda.set_sync_debug_mode(\"warn\") names the line; lint the head profile for nsys/sync-api findings.");
            case "peak-memory-share" -> new ShareRow("Peak GPU memory share", "rose",
                    "Check for larger activations (batch, sequence length), tensors kept across steps, or a disabled activation checkpointing.");
            default -> throw new IllegalArgumentException("no share metric '" + metric + "'");
        };
    }

    /**
     * Reports a share metric that moved beyond its tolerance ({@code minParam}, the rule's parameter of that name) as
     * the firing rule: one message, evidence and recommendation for every share metric.
     */
    public static void reportShare(FindingSink findings, RuleContext kcontext, MetricDelta d, String minParam, double min) {
        ShareRow row = shareRow(d.metric());
        findings.report(kcontext, Subject.profile(),
                Message.of("regressed", "label", row.label(), "direction", row.direction(), "change", change(d)),
                row.recommendation(),
                Evidence.of("metric", d.metric(), "base", d.baseCenter(), "head", d.headCenter(), "changePoints", d.worseBy(),
                        minParam, min));
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

    public static String duration(double ns) {
        return Units.duration(ns);
    }

    public static String pct(double pct) {
        return Units.pct(pct);
    }
}
