package dlproflint.engine.run;

import dlproflint.engine.catalog.LoadedRule;
import org.kie.api.event.rule.AfterMatchFiredEvent;
import org.kie.api.event.rule.BeforeMatchFiredEvent;
import org.kie.api.event.rule.DefaultAgendaEventListener;
import org.kie.api.definition.rule.Rule;

import java.util.HashMap;
import java.util.Map;

/**
 * Which rule of a session is running its action right now, and how often each rule fired: what a
 * failure or a timeout needs to name the rule responsible (an {@code Error} thrown from an action, unlike
 * an exception, carries no rule; an update loop shows up as one rule firing over and over).
 */
final class FiringTracker extends DefaultAgendaEventListener {
    private final PackRuntime pack;
    private final Map<String, Long> firings = new HashMap<>();
    private volatile LoadedRule current;
    private volatile LoadedRule mostFired;
    private volatile long mostFiredCount;

    FiringTracker(PackRuntime pack) {
        this.pack = pack;
    }

    @Override
    public void beforeMatchFired(BeforeMatchFiredEvent event) {
        Rule r = event.getMatch().getRule();
        LoadedRule rule = pack.rule(r.getPackageName(), r.getName());
        current = rule;
        if (rule == null) return;
        long n = firings.merge(rule.key(), 1L, Long::sum);
        if (n > mostFiredCount) {
            mostFiredCount = n;
            mostFired = rule;
        }
    }

    @Override
    public void afterMatchFired(AfterMatchFiredEvent event) {
        current = null;
    }

    /** The rule whose action is running, or null between actions (evaluating conditions). */
    LoadedRule current() {
        return current;
    }

    LoadedRule mostFired() {
        return mostFired;
    }

    long mostFiredCount() {
        return mostFiredCount;
    }
}
