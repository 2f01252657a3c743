package dlproflint.extract.common;

import dlproflint.facts.OpFact;
import dlproflint.facts.StackFrame;
import dlproflint.facts.StackFrames;

import java.util.List;

/**
 * The code that drives the model, for findings about a whole run when the profile shows no call site of its step
 * boundaries: the outermost user frame of the ops' stacks (the line that calls the model, as DLProf's markers and
 * databases record it), the one under which most GPU time was spent.
 */
public final class TrainingLoop {
    private TrainingLoop() {
    }

    /** That frame and its recorded callers (innermost first), or an empty list. */
    public static List<StackFrame> site(List<OpFact> ops) {
        SiteVotes<StackFrame> votes = new SiteVotes<>();
        java.util.Map<StackFrame, List<StackFrame>> chains = new java.util.HashMap<>();
        for (OpFact op : ops) {
            List<StackFrame> s = op.stack();
            for (int i = s.size() - 1; i >= 0; i--) {
                if (StackFrames.isUserFrame(s.get(i))) {
                    votes.add(s.get(i), op.gpuTime().total());
                    chains.putIfAbsent(s.get(i), List.copyOf(s.subList(i, s.size())));
                    break;
                }
            }
        }
        StackFrame best = votes.best();
        return best == null ? List.of() : chains.get(best);
    }
}
