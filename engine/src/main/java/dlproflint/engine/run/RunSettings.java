package dlproflint.engine.run;

import dlproflint.engine.Budget;
import dlproflint.engine.RuleLoadException;
import dlproflint.engine.Param;
import dlproflint.findings.ParamSpec;
import dlproflint.engine.RunConfig;
import dlproflint.findings.Impact;
import dlproflint.findings.Severity;
import dlproflint.findings.SeverityThresholds;
import dlproflint.engine.catalog.LoadedRule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link RunConfig} checked against the loaded rules and resolved into what a session needs:
 * which finding rules may fire, the severity of each finding (pinned by the configuration, else from its
 * impact through the thresholds, else the rule's declared one), and the {@link Param} and
 * {@link Budget} facts to insert.
 * A parameter name a rule does not declare is an error (a typo must not silently keep the default).
 * Rule ids no loaded pack declares are ignored here: a configuration may name rules of a pack that is
 * not loaded in this run; the CLI warns about them.
 */
public final class RunSettings {
    private static final String ORIGIN = "configuration";
    /** The built-in pack that checks budgets. */
    public static final String BUDGET_PACK = "budget";

    private final Set<String> enabledIds;
    private final Map<String, Severity> declared;
    /** Rules whose findings keep their declared severity whatever they cost ({@code @severityFrom("declared")}). */
    private final Set<String> fixed;
    private final Map<String, Severity> pinned;
    private final SeverityThresholds thresholds;
    private final Map<String, SeverityThresholds> ruleThresholds;
    private final List<Param> params;
    private final List<Budget> budgets;

    private RunSettings(Set<String> enabledIds, Map<String, Severity> declared, Set<String> fixed, RunConfig config,
                        List<Param> params) {
        this.enabledIds = enabledIds;
        this.declared = declared;
        this.fixed = fixed;
        this.pinned = config.severityOverrides();
        this.thresholds = config.severityThresholds();
        this.ruleThresholds = config.ruleThresholds();
        this.params = params;
        this.budgets = config.budgets();
    }

    public static RunSettings resolve(RunConfig config, List<LoadedRule> rules) throws RuleLoadException {
        Set<String> enabled = new HashSet<>();
        Map<String, Severity> declared = new HashMap<>();
        Set<String> fixed = new HashSet<>();
        List<Param> params = new ArrayList<>();
        for (LoadedRule r : rules) {
            String id = r.id();
            if (!r.derive() && (config.enable().isEmpty() || config.enable().contains(id)) && !config.disable().contains(id)) {
                enabled.add(id);
            }
            if (r.metadata().severity() != null) declared.put(id, r.metadata().severity());
            if (r.metadata().severityFixed()) fixed.add(id);
            Map<String, Object> overrides = config.params().getOrDefault(id, Map.of());
            for (Map.Entry<String, Object> o : overrides.entrySet()) {
                ParamSpec spec = r.metadata().params().stream().filter(p -> p.name().equals(o.getKey())).findFirst().orElse(null);
                if (spec == null) {
                    throw new RuleLoadException(ORIGIN, 0, "rule '" + id + "' has no parameter '" + o.getKey() + "' (declared: "
                            + (r.metadata().paramDefaults().isEmpty() ? "none" : String.join(", ", r.metadata().paramDefaults().keySet())) + ")");
                }
                String invalid = spec.type().invalid(o.getValue());
                if (invalid != null) {
                    throw new RuleLoadException(ORIGIN, 0, "rule '" + id + "' parameter '" + o.getKey() + "' is " + invalid
                            + " (" + spec.typeText() + "), not " + o.getValue());
                }
            }
            for (ParamSpec spec : r.metadata().params()) params.add(param(id, spec, overrides.getOrDefault(spec.name(), spec.defaultObject())));
        }
        if (!config.budgets().isEmpty() && rules.stream().noneMatch(r -> r.id().startsWith(BUDGET_PACK + "/"))) {
            throw new RuleLoadException(ORIGIN, 0, "'budgets' need the built-in '" + BUDGET_PACK
                    + "' pack, which is not loaded (is it switched off under 'packs'?)");
        }
        return new RunSettings(Set.copyOf(enabled), Map.copyOf(declared), Set.copyOf(fixed), config, List.copyOf(params));
    }

    private static Param param(String rule, ParamSpec spec, Object value) {
        if (value instanceof List<?> l) return new Param(rule, spec.name(), Double.NaN, l.stream().map(String::valueOf).toList());
        return new Param(rule, spec.name(), ((Number) value).doubleValue(), List.of());
    }

    /** Derive rules always run; finding rules only when enabled. */
    public boolean mayFire(LoadedRule r) {
        return r.derive() || enabledIds.contains(r.id());
    }

    public boolean enabled(String ruleId) {
        return enabledIds.contains(ruleId);
    }

    /** The rule's declared severity, or the configuration's pin. */
    public Severity severity(String ruleId) {
        return pinned.getOrDefault(ruleId, declared.get(ruleId));
    }

    /**
     * The severity of one finding: the configuration's pin for its rule; else, when the rule measured what the
     * problem costs, the rule's own configured thresholds, or the global ones unless the rule keeps its declared
     * severity ({@code @severityFrom("declared")}); else the rule's declared severity.
     */
    public Severity severity(String ruleId, Impact impact) {
        Severity pin = pinned.get(ruleId);
        if (pin != null) return pin;
        if (impact == null) return declared.get(ruleId);
        SeverityThresholds own = ruleThresholds.get(ruleId);
        if (own != null) return own.severityOf(impact);
        if (fixed.contains(ruleId)) return declared.get(ruleId);
        return thresholds.severityOf(impact);
    }

    public List<Budget> budgets() {
        return budgets;
    }

    public List<Param> params() {
        return params;
    }
}
