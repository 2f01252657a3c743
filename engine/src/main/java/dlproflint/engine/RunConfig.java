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
    /** Every rule of every loaded pack, declared severities and defaults, the default thresholds, no budgets. */
    public static final RunConfig DEFAULT = new RunConfig(Set.of(), Set.of(), Map.of(), Map.of(), Map.of(), Set.of(), null, null, null);

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

    /*
     * Every change goes through a wither that copies all the other settings: there is no shorter constructor that
     * could silently drop thresholds, per-rule thresholds or budgets.
     */

    /** The same configuration with these budgets. */
    public RunConfig withBudgets(List<Budget> newBudgets) {
        return new RunConfig(enable, disable, severityOverrides, params, packVersions, disabledPacks, severityThresholds,
                ruleThresholds, newBudgets);
    }

    /** The same configuration running only {@code newEnable} (empty: all) less {@code newDisable}. */
    public RunConfig withSelection(Set<String> newEnable, Set<String> newDisable) {
        return new RunConfig(newEnable, newDisable, severityOverrides, params, packVersions, disabledPacks, severityThresholds,
                ruleThresholds, budgets);
    }

    /** The same configuration with these pinned severities. */
    public RunConfig withSeverityOverrides(Map<String, Severity> newOverrides) {
        return new RunConfig(enable, disable, newOverrides, params, packVersions, disabledPacks, severityThresholds,
                ruleThresholds, budgets);
    }

    /** The same configuration with these parameter overrides. */
    public RunConfig withParams(Map<String, ? extends Map<String, ?>> newParams) {
        Map<String, Map<String, Object>> p = new java.util.LinkedHashMap<>();
        newParams.forEach((rule, values) -> p.put(rule, new java.util.LinkedHashMap<>(values)));
        return new RunConfig(enable, disable, severityOverrides, p, packVersions, disabledPacks, severityThresholds,
                ruleThresholds, budgets);
    }

    /** The same configuration with these pack pins. */
    public RunConfig withPackVersions(Map<String, String> newPins) {
        return new RunConfig(enable, disable, severityOverrides, params, newPins, disabledPacks, severityThresholds,
                ruleThresholds, budgets);
    }

    /** The same configuration with these packs switched off. */
    public RunConfig withDisabledPacks(Set<String> newDisabled) {
        return new RunConfig(enable, disable, severityOverrides, params, packVersions, newDisabled, severityThresholds,
                ruleThresholds, budgets);
    }

    /** What loading the packs depends on (pins, disabled packs); the rest applies per run without recompiling. */
    public RunConfig loadTime() {
        return DEFAULT.withPackVersions(packVersions).withDisabledPacks(disabledPacks);
    }
}
