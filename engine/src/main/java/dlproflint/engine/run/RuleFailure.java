package dlproflint.engine.run;

import dlproflint.engine.catalog.LoadedRule;
import org.kie.api.runtime.rule.ConsequenceException;

/**
 * A rule failed while linting a profile: it threw (a bug in the rule, e.g. a null field it did not
 * expect), ran out of memory or stack, or did not finish within the rule time limit (an update loop or
 * an endless loop in its code). The message names the rule, where it is declared and the profile, so
 * the report points at the rule author rather than at the engine; the CLI exits 2, as for any rule error.
 */
public final class RuleFailure extends RuntimeException {
    private RuleFailure(String message, Throwable cause) {
        super(message, cause);
    }

    /** @param running the rule whose action was running when {@code e} was thrown, if known */
    static RuleFailure of(PackRuntime pack, String profilePath, Throwable e, LoadedRule running) {
        LoadedRule r = running;
        if (e instanceof ConsequenceException ce && ce.getRule() != null) {
            LoadedRule named = pack.rule(ce.getRule().getPackageName(), ce.getRule().getName());
            if (named != null) r = named;
            else if (r == null) return new RuleFailure("rule \"" + ce.getRule().getName() + "\" failed on " + profilePath + ": " + root(e), e);
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String what = e instanceof StackOverflowError ? "overflowed the stack (endless recursion?)"
                : e instanceof OutOfMemoryError ? "ran out of memory (" + e.getMessage() + ")"
                : root instanceof FactBudget.Exceeded ? root.getMessage()
                : null;
        String who = r == null ? "a rule of pack " + pack.pack().id() + " (while evaluating rule conditions)" : describe(r);
        return new RuleFailure(who + (what == null ? " failed on " + profilePath + ": " + root(e) : " " + what + " on " + profilePath), e);
    }

    /** The session did not finish in time; names the rule that was running, else the one that fired most. */
    static RuleFailure timeout(PackRuntime pack, String profilePath, RuleDeadline deadline, FiringTracker tracker,
                               LoadedRule evaluating) {
        String tail = " did not finish within the rule time limit of " + deadline.limitText() + " on " + profilePath;
        String hint = "; raise --rule-timeout if the rules are merely slow";
        LoadedRule running = tracker.current();
        if (running != null) return new RuleFailure(describe(running) + tail + " (its action was still running: an endless loop?)" + hint, null);
        if (evaluating != null) {
            return new RuleFailure(describe(evaluating) + tail + " (its conditions were still being evaluated: an endless loop?)" + hint, null);
        }
        LoadedRule most = tracker.mostFired();
        if (most != null && tracker.mostFiredCount() > 1) {
            return new RuleFailure(describe(most) + tail + " (it fired " + tracker.mostFiredCount()
                    + " times: an update or insert loop?)" + hint, null);
        }
        return new RuleFailure("the rules of pack " + pack.pack().id() + tail + hint, null);
    }

    /** {@code rule demo/boom (packs/demo/boom.drl:6)}. */
    static String describe(LoadedRule r) {
        return "rule " + r.id() + (r.drl() == null ? "" : " (" + r.drl().origin() + ":" + r.line() + ")");
    }

    private static String root(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        return root.toString();
    }
}
