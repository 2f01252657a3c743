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

    /** The measurement layer replayed the steps and priced the sync points ({@link HostSyncStat#savingNs()}). */
    public static boolean replayed(HostSyncStat h) {
        return h.savingNs() >= 0 && h.replayStepNs() > 0 && h.steps() > 0;
    }

    /**
     * Replayed: the saving reaches {@code minSavingPct}; not replayed (a reader without launch links): the GPU idle the
     * syncs cause was measured and reaches {@code minIdlePct}.
     */
    public static boolean worthReporting(HostSyncStat h, double savingPct, double minSavingPct, double idlePct,
                                         double minIdlePct) {
        return replayed(h) ? savingPct >= minSavingPct : h.gpuIdleNs() > 0 && idlePct >= minIdlePct;
    }

    /**
     * Not replayed, and what the sync points cost ({@code cost}, per step) is the host's wait in them rather than the GPU
     * idle after them: a host-bound loop whose GPU would idle anyway while the host runs on
     * ({@link dlproflint.packs.cost.Cost#syncCostPerStep}). The message then says so instead of naming the idle time as
     * what they cost.
     */
    public static boolean hostWaitIsTheCost(HostSyncStat h, dlproflint.findings.Impact cost) {
        return !replayed(h) && cost != null && h.steps() > 0 && cost.lostNs() < h.gpuIdleNs() / (double) h.steps() * 0.999;
    }

    /** What removing the sync points saves per step, as a share of the replayed step; 0 without a replay. */
    public static double savingPctOfStep(HostSyncStat h) {
        return replayed(h) ? 100.0 * h.savingNs() / h.steps() / h.replayStepNs() : 0;
    }

    /**
     * Where the syncs are, in words for the message: empty without a location; with Kineto's Python-tracer frames
     * ({@code python_function} events), which name each function by its first line and not by the line of the call,
     * the function and that caveat, so nobody looks for the {@code .item()} on the {@code def} line.
     */
    public static String where(StackFrame at, Collection<?> sites) {
        if (at == null) return "";
        String fn = at.function() == null || at.function().isBlank() ? "" : " in " + at.function() + "()";
        for (Object o : sites) {
            String source = ((dlproflint.facts.CallSites) o).source();
            if (source != null && source.contains("python_function")) {
                return fn + " (the function starting at " + at + "; the trace's Python frames name functions, not the line of the call)";
            }
        }
        return fn + " at " + at;
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

    /** "; 4 of them GradScaler's inf check" for the message's list of calls, or empty. */
    public static String scalerClause(HostSyncStat h) {
        long n = h.scalerSyncPoints();
        return n <= 0 ? "" : "; " + (n == h.syncPoints() ? "all of them" : n + " of them") + " GradScaler's inf check";
    }

    /**
     * The fix for GradScaler's sync, before the general advice, when some sync points are its: {@code scaler.step()}
     * reads the inf flag on the host unless the optimizer takes the check on the GPU.
     */
    public static String scalerAdvice(HostSyncStat h) {
        if (h.scalerSyncPoints() <= 0) return "";
        return "GradScaler's step() reads the inf flag on the host (found_inf.item()) because the optimizer cannot take the"
                + " check on the GPU: train in BF16 autocast without a GradScaler (see pytorch/fp16-not-bf16), or use a"
                + " fused optimizer (torch.optim.AdamW(params, fused=True)), which skips the step on the GPU. ";
    }
}
