package dlproflint.engine.run;

import dlproflint.engine.RuleLoadException;
import dlproflint.engine.RuleParam;
import dlproflint.engine.RunConfig;
import dlproflint.findings.Severity;
import dlproflint.engine.catalog.LoadedRule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link RunConfig} checked against the loaded rules and resolved into what a session needs:
 * which finding rules may fire, the severity of each, and the {@link RuleParam} facts to insert.
 * A parameter name a rule does not declare is an error (a typo must not silently keep the default).
 * Rule ids no loaded pack declares are ignored here: a configuration may name rules of a pack that is
 * not loaded in this run; the CLI warns about them.
 */
public final class RunSettings {
    private static final String ORIGIN = "configuration";

    private final Set<String> enabledIds;
    private final Map<String, Severity> severities;
    private final List<RuleParam> params;

    private RunSettings(Set<String> enabledIds, Map<String, Severity> severities, List<RuleParam> params) {
        this.enabledIds = enabledIds;
        this.severities = severities;
        this.params = params;
    }

    public static RunSettings resolve(RunConfig config, List<LoadedRule> rules) throws RuleLoadException {
        Set<String> enabled = new HashSet<>();
        Map<String, Severity> severities = new HashMap<>();
        List<RuleParam> params = new ArrayList<>();
        for (LoadedRule r : rules) {
            String id = r.id();
            if (!r.derive() && (config.enable().isEmpty() || config.enable().contains(id)) && !config.disable().contains(id)) {
                enabled.add(id);
            }
            if (r.metadata().severity() != null) {
                severities.put(id, config.severityOverrides().getOrDefault(id, r.metadata().severity()));
            }
            Map<String, Double> overrides = config.params().getOrDefault(id, Map.of());
            for (String name : overrides.keySet()) {
                if (!r.metadata().paramDefaults().containsKey(name)) {
                    throw new RuleLoadException(ORIGIN, 0, "rule '" + id + "' has no parameter '" + name + "' (declared: "
                            + (r.metadata().paramDefaults().isEmpty() ? "none" : String.join(", ", r.metadata().paramDefaults().keySet())) + ")");
                }
            }
            r.metadata().paramDefaults().forEach((name, def) -> params.add(new RuleParam(id, name, overrides.getOrDefault(name, def))));
        }
        return new RunSettings(Set.copyOf(enabled), Map.copyOf(severities), List.copyOf(params));
    }

    /** Derive rules always run; finding rules only when enabled. */
    public boolean mayFire(LoadedRule r) {
        return r.derive() || enabledIds.contains(r.id());
    }

    public boolean enabled(String ruleId) {
        return enabledIds.contains(ruleId);
    }

    public Severity severity(String ruleId) {
        return severities.get(ruleId);
    }

    public List<RuleParam> params() {
        return params;
    }
}
