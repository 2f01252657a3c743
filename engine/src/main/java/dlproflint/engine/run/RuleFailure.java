package dlproflint.engine.run;

import dlproflint.engine.catalog.LoadedRule;
import org.kie.api.runtime.rule.ConsequenceException;

/**
 * A rule threw while linting a profile (a bug in the rule, e.g. a null field it did not expect).
 * The message names the rule, where it is declared and the profile, so the report points at the
 * rule author rather than at the engine.
 */
public final class RuleFailure extends RuntimeException {
    private RuleFailure(String message, Throwable cause) {
        super(message, cause);
    }

    static RuleFailure of(PackRuntime pack, String profilePath, RuntimeException e) {
        String rule = "a rule of pack " + pack.pack().id();
        if (e instanceof ConsequenceException ce && ce.getRule() != null) {
            LoadedRule r = pack.rule(ce.getRule().getPackageName(), ce.getRule().getName());
            rule = r == null ? "rule \"" + ce.getRule().getName() + "\""
                    : "rule " + r.id() + (r.drl() == null ? "" : " (" + r.drl().origin() + ":" + r.line() + ")");
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        return new RuleFailure(rule + " failed on " + profilePath + ": " + root, e);
    }
}
