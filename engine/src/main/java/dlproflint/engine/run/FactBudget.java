package dlproflint.engine.run;

import org.kie.api.event.rule.ObjectDeletedEvent;
import org.kie.api.event.rule.ObjectInsertedEvent;
import org.kie.api.event.rule.ObjectUpdatedEvent;
import org.kie.api.event.rule.RuleRuntimeEventListener;

/**
 * How many facts the rules of one session may insert: {@value #MAX_INSERTS}. The built-in packs insert none (every
 * fact comes from the profile); a site rule that inserts a fact its own conditions match again inserts without end,
 * and its memory would run out long before its time limit (1.3 GB within a minute). Past the budget the insert fails
 * and the session ends with a {@link RuleFailure} naming the rule.
 */
final class FactBudget implements RuleRuntimeEventListener {
    static final int MAX_INSERTS = 100_000;
    private int inserts;

    /** Thrown into the rule that inserts one fact too many. */
    static final class Exceeded extends RuntimeException {
        Exceeded() {
            super("inserted more than " + MAX_INSERTS + " facts in one session (an insert loop: a rule whose conditions"
                    + " match the facts it inserts?)");
        }
    }

    @Override
    public void objectInserted(ObjectInsertedEvent event) {
        if (++inserts > MAX_INSERTS) throw new Exceeded();
    }

    @Override
    public void objectUpdated(ObjectUpdatedEvent event) {
        // updates are bounded by the time limit, not by memory
    }

    @Override
    public void objectDeleted(ObjectDeletedEvent event) {
        // a deletion frees what an insert took
    }
}
