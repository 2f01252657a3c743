package dlproflint.engine;

import dlproflint.findings.Severity;
import dlproflint.findings.SeverityThresholds;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Per-run rule selection and tuning, from the configuration file and the command line.
 *
 * @param enable             rule ids to enable (empty = all rules of enabled packs)
 * @param disable            rule ids to disable (wins over enable)
 * @param severityOverrides  rule id → severity, pinned whatever the finding costs
 * @param params             rule id → (param name → value: a number, or a list of names), overriding {@code @params} defaults
 * @param packVersions       pack id → required version (a pin; a mismatch is a configuration error)
 * @param disabledPacks      pack ids not to load
 * @param severityThresholds how a finding's severity follows from its impact, for every rule without its own
 * @param ruleThresholds     rule id → its own thresholds
 * @param budgets            bounds on key metrics, checked by the {@code budget} pack
 */
public record RunConfig(Set<String> enable, Set<String> disable, Map<String, Severity> severityOverrides,
                        Map<String, Map<String, Object>> params, Map<String, String> packVersions,
                        Set<String> disabledPacks, SeverityThresholds severityThresholds,
                        Map<String, SeverityThresholds> ruleThresholds, List<Budget> budgets) implements java.io.Serializable {
    public static final RunConfig DEFAULT = new RunConfig(Set.of(), Set.of(), Map.of(), Map.of(), Map.of(), Set.of());

    public RunConfig {
        enable = Set.copyOf(enable);
        disable = Set.copyOf(disable);
        severityOverrides = Map.copyOf(severityOverrides);
        Map<String, Map<String, Object>> p = new java.util.LinkedHashMap<>();
        params.forEach((rule, values) -> p.put(rule, java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(values))));
        params = java.util.Collections.unmodifiableMap(p);
        packVersions = Map.copyOf(packVersions);
        disabledPacks = Set.copyOf(disabledPacks);
        severityThresholds = severityThresholds == null ? SeverityThresholds.DEFAULT : severityThresholds;
        ruleThresholds = ruleThresholds == null ? Map.of() : Map.copyOf(ruleThresholds);
        budgets = budgets == null ? List.of() : List.copyOf(budgets);
    }

    /** Default severity thresholds, no budgets. */
    public RunConfig(Set<String> enable, Set<String> disable, Map<String, Severity> severityOverrides,
                     Map<String, Map<String, Object>> params, Map<String, String> packVersions, Set<String> disabledPacks) {
        this(enable, disable, severityOverrides, params, packVersions, disabledPacks, null, null, null);
    }

    /** The same configuration with these budgets. */
    public RunConfig withBudgets(List<Budget> newBudgets) {
        return new RunConfig(enable, disable, severityOverrides, params, packVersions, disabledPacks, severityThresholds,
                ruleThresholds, newBudgets);
    }
}
