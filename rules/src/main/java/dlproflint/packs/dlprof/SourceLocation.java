package dlproflint.packs.dlprof;

import dlproflint.facts.OpFact;
import dlproflint.facts.StackFrame;


/**
 * The source line a finding about an op should point at: the user-code frame closest to the op. Readers hold every
 * stack innermost first, so this is {@link OpFact#location()}; the helper stays for the rules that call it.
 */
public final class SourceLocation {
    private SourceLocation() {
    }

    public static StackFrame of(OpFact op) {
        return op == null ? null : op.location();
    }

    /**
     * The line of the op with the most GPU time among {@code ops} that have one: backward ops run on autograd's thread,
     * where the profiler records no Python stack, so a finding about many ops points at the largest one the model's
     * code calls (its forward op), not at the training loop.
     */
    public static StackFrame ofLargest(java.util.Collection<?> ops) {
        OpFact best = null;
        for (Object o : ops) {
            OpFact op = (OpFact) o;
            if (op.location() != null && (best == null || op.gpuTime().total() > best.gpuTime().total())) best = op;
        }
        return of(best);
    }
}
