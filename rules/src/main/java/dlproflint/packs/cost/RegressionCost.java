package dlproflint.packs.cost;

import dlproflint.facts.Comparison;
import dlproflint.facts.KernelDelta;
import dlproflint.facts.MetricDelta;
import dlproflint.facts.OpDelta;
import dlproflint.findings.Impact;

/**
 * What the {@code regression} pack's findings cost: the head's time per step (or per run, for profiles without steps)
 * beyond the base run's, all of it recovered by undoing the change.
 */
public final class RegressionCost {
    private RegressionCost() {
    }

    /** What a slower step costs: the median shift per step (or over the run). */
    public static Impact of(Comparison c, MetricDelta d) {
        double lost = Math.max(0, d.worseBy());
        return "step".equals(c.basis()) ? Impact.perStep(lost, d.baseCenter(), lost, "median step-time shift against the base run")
                : Impact.overRun(lost, d.baseCenter(), lost, "run-time shift against the base run");
    }

    public static Impact of(Comparison c, OpDelta d) {
        return growth(c, d.growthNs(), d.baseStepNs(), "the op's GPU time per step, head minus base");
    }

    public static Impact of(Comparison c, KernelDelta d) {
        return growth(c, d.growthNs(), d.baseStepNs(), "the kernel's GPU time per step, head minus base");
    }

    private static Impact growth(Comparison c, double growthNs, double periodNs, String model) {
        double lost = Math.max(0, growthNs);
        return "step".equals(c.basis()) ? Impact.perStep(lost, periodNs, lost, model) : Impact.overRun(lost, periodNs, lost, model);
    }
}
