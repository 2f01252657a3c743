package dlproflint.engine.run;

import dlproflint.findings.Finding;
import dlproflint.findings.FindingOrder;
import dlproflint.engine.Param;
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
 * {@link Param}s, the profile's key metrics and the configuration's budgets inserted, fired through an {@link AgendaFilter} that lets derive rules and
 * enabled finding rules through, disposed afterwards. Enabling, disabling and re-tuning rules is a
 * property of the run, never of the compiled KieBase.
 */
public final class SessionRunner {
    private SessionRunner() {
    }

    /**
     * As {@link #run(PackRuntime, RunSettings, ProfileFacts, KeyMetrics, RuleDeadline)} with no deadline.
     */
    public static List<Finding> run(PackRuntime pack, RunSettings settings, ProfileFacts facts) {
        return run(pack, settings, facts, KeyMetrics.of(facts), RuleDeadline.NONE);
    }

    /**
     * Runs the session on its own thread, watched by the caller: at the deadline the session is halted (ends update and insert loops between two
     * firings) and its thread interrupted; a rule that still does not return (a busy loop in its code) is
     * stopped, or abandoned as a daemon thread where the JVM no longer allows that. Whatever a rule throws,
     * {@code Error}s included (stack overflow, out of memory), becomes a {@link RuleFailure} naming it.
     *
     * @param metrics the profile's key metrics, inserted as {@link dlproflint.facts.MetricValue} facts next to the
     *                configuration's {@link dlproflint.engine.Budget}s (computed once per profile by the caller)
     */
    public static List<Finding> run(PackRuntime pack, RunSettings settings, ProfileFacts facts, KeyMetrics metrics,
                                    RuleDeadline deadline) {
        return run(pack, settings, facts.profile() == null ? null : facts.profile().path(), facts::facts, metrics, deadline);
    }

    /**
     * Lints any set of facts (one profile's, or a job's cross-rank facts) against one pack, under the deadline.
     *
     * @param path    what the findings belong to (a profile, or a job's label)
     * @param facts   the fact objects to insert, asked for only when some rule of the pack is enabled
     * @param metrics key metrics for budgets (none for a job)
     */
    public static List<Finding> run(PackRuntime pack, RunSettings settings, String path,
                                    java.util.function.Supplier<java.util.stream.Stream<Object>> facts, KeyMetrics metrics,
                                    RuleDeadline deadline) {
        boolean anyEnabled = pack.rules().stream().anyMatch(r -> !r.derive() && settings.enabled(r.id()));
        if (!anyEnabled) return List.of(); // only derive rules would fire: nothing could be reported
        CollectingSink sink = new CollectingSink(pack, settings, path);
        KieSession session = pack.compiled().kieBase().newKieSession();
        FiringTracker tracker = new FiringTracker(pack);
        session.addEventListener(tracker);
        Throwable[] failure = new Throwable[1];
        FactBudget budget = new FactBudget();
        Thread worker = new Thread(() -> {
            RuleCode.entered();
            try {
                if (pack.hasFindingsGlobal()) session.setGlobal(PackRuntime.GLOBAL, sink);
                facts.get().filter(o -> o != null && pack.sees(o)).forEach(session::insert);
                Set<String> ids = pack.rules().stream().map(LoadedRule::id).collect(Collectors.toSet());
                for (Param p : settings.params()) {
                    if (ids.contains(p.rule())) session.insert(p);
                }
                metrics.facts().forEach(session::insert);
                settings.budgets().forEach(session::insert);
                AgendaFilter filter = match -> {
                    LoadedRule r = pack.rule(match.getRule().getPackageName(), match.getRule().getName());
                    return r != null && settings.mayFire(r);
                };
                session.addEventListener(budget); // from here on, every insert is a rule's
                session.fireAllRules(filter);
            } catch (Throwable t) { // NOPMD: a rule's Error is reported like its exceptions
                failure[0] = t;
            } finally {
                RuleCode.left();
            }
        }, "dlprof-lint-rules-" + pack.pack().id());
        worker.setDaemon(true);
        worker.start();
        boolean finished = Watchdog.await(worker, deadline);
        if (!finished) {
            LoadedRule evaluating = tracker.current() == null ? RuleFrames.find(pack, worker.getStackTrace()) : null;
            RuleFailure timeout = RuleFailure.timeout(pack, path, deadline, tracker, evaluating);
            if (Watchdog.stop(worker, session)) session.dispose();
            throw timeout;
        }
        session.dispose();
        if (failure[0] != null) throw RuleFailure.of(pack, path, failure[0], tracker.current());
        List<Finding> out = new ArrayList<>(sink.findings());
        out.sort(FindingOrder.COMPARATOR);
        return out;
    }
}
