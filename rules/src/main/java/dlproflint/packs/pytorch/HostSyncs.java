package dlproflint.packs.pytorch;

import dlproflint.facts.HostSyncStat;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.OpFact;
import dlproflint.facts.StackFrame;

import java.util.Collection;

/** Where host syncs come from in the user's code. */
public final class HostSyncs {
    private HostSyncs() {
    }

    /** The GPU idle time the sync points cause per step, as a share of the mean step, 0..100+. */
    public static double idlePctOfStep(HostSyncStat h, IterationSummary s) {
        return 100.0 * h.gpuIdleNs() / h.steps() / s.avgDurationNs();
    }

    /** The source line of the most-called syncing op that recorded a stack, or null. */
    public static StackFrame location(Collection<?> ops) {
        OpFact best = null;
        for (Object o : ops) {
            OpFact op = (OpFact) o;
            if (op.location() != null && (best == null || op.calls() > best.calls())) best = op;
        }
        return best == null ? null : best.location();
    }
}
