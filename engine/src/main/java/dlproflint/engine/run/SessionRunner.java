package dlproflint.engine.run;

import dlproflint.findings.Finding;
import dlproflint.findings.FindingOrder;
import dlproflint.engine.RuleParam;
import dlproflint.engine.catalog.LoadedRule;
import dlproflint.facts.KeyMetrics;
import dlproflint.facts.ProfileFacts;
import org.kie.api.runtime.KieSession;
import org.kie.api.runtime.rule.AgendaFilter;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Lints one profile against one pack: a fresh session, the profile's facts plus the pack's
 * {@link RuleParam}s, the profile's key metrics and the configuration's budgets inserted, fired through an {@link AgendaFilter} that lets derive rules and
 * enabled finding rules through, disposed afterwards. Enabling, disabling and re-tuning rules is a
 * property of the run, never of the compiled KieBase.
 */
public final class SessionRunner {
    private SessionRunner() {
    }

    public static List<Finding> run(PackRuntime pack, RunSettings settings, ProfileFacts facts) {
        return run(pack, settings, facts, KeyMetrics.of(facts));
    }

    /**
     * @param metrics the profile's key metrics, inserted as {@link dlproflint.facts.MetricValue} facts next to the
     *                configuration's {@link dlproflint.engine.Budget}s (computed once per profile by the caller)
     */
    public static List<Finding> run(PackRuntime pack, RunSettings settings, ProfileFacts facts, KeyMetrics metrics) {
        boolean anyEnabled = pack.rules().stream().anyMatch(r -> !r.derive() && settings.enabled(r.id()));
        if (!anyEnabled) return List.of(); // only derive rules would fire: nothing could be reported
        String path = facts.profile() == null ? null : facts.profile().path();
        CollectingSink sink = new CollectingSink(pack, settings, path);
        KieSession session = pack.compiled().kieBase().newKieSession();
        try {
            if (pack.hasFindingsGlobal()) session.setGlobal(PackRuntime.GLOBAL, sink);
            facts.facts().filter(o -> o != null).forEach(session::insert);
            Set<String> ids = pack.rules().stream().map(LoadedRule::id).collect(Collectors.toSet());
            for (RuleParam p : settings.params()) {
                if (ids.contains(p.rule())) session.insert(p);
            }
            metrics.facts().forEach(session::insert);
            settings.budgets().forEach(session::insert);
            AgendaFilter filter = match -> {
                LoadedRule r = pack.rule(match.getRule().getPackageName(), match.getRule().getName());
                return r != null && settings.mayFire(r);
            };
            session.fireAllRules(filter);
        } catch (RuntimeException e) {
            throw RuleFailure.of(pack, path, e);
        } finally {
            session.dispose();
        }
        List<Finding> out = new ArrayList<>(sink.findings());
        out.sort(FindingOrder.COMPARATOR);
        return out;
    }
}
