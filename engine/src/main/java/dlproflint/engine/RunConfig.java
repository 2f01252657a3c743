package dlproflint.engine;

import dlproflint.findings.Severity;

import java.util.Map;
import java.util.Set;

/**
 * Per-run rule selection and tuning, from the configuration file and the command line.
 *
 * @param enable            rule ids to enable (empty = all rules of enabled packs)
 * @param disable           rule ids to disable (wins over enable)
 * @param severityOverrides rule id → severity
 * @param params            rule id → (param name → value), overriding {@code @params} defaults
 * @param packVersions      pack id → required version (a pin; a mismatch is a configuration error)
 * @param disabledPacks     pack ids not to load
 */
public record RunConfig(Set<String> enable, Set<String> disable, Map<String, Severity> severityOverrides,
                        Map<String, Map<String, Double>> params, Map<String, String> packVersions,
                        Set<String> disabledPacks) implements java.io.Serializable {
    public static final RunConfig DEFAULT = new RunConfig(Set.of(), Set.of(), Map.of(), Map.of(), Map.of(), Set.of());

    public RunConfig {
        enable = Set.copyOf(enable);
        disable = Set.copyOf(disable);
        severityOverrides = Map.copyOf(severityOverrides);
        params = Map.copyOf(params);
        packVersions = Map.copyOf(packVersions);
        disabledPacks = Set.copyOf(disabledPacks);
    }
}
