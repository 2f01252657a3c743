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
}
