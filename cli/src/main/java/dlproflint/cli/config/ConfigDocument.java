package dlproflint.cli.config;


import java.util.List;
import java.util.Map;

/**
 * The {@code .dlprof-lint.yml} document exactly as written; Jackson binds it strictly (unknown keys
 * and wrong types are errors), {@link ConfigLoader} turns it into a {@link LintConfig}.
 */
record ConfigDocument(Map<String, PackSetting> packs, Rules rules, List<String> ruleDirs,
                      List<Suppression> suppressions, Sarif sarif, Map<String, Bounds> budgets) {

    ConfigDocument {
        packs = packs == null ? Map.of() : packs;
        rules = rules == null ? new Rules(null, null, null, null, null) : rules;
        budgets = budgets == null ? Map.of() : budgets;
        ruleDirs = ruleDirs == null ? List.of() : ruleDirs;
        suppressions = suppressions == null ? List.of() : suppressions;
        sarif = sarif == null ? new Sarif(null) : sarif;
    }

    static ConfigDocument empty() {
        return new ConfigDocument(null, null, null, null, null, null);
    }

    /**
     * {@code rules:} selection and tuning; {@code severity} pins a rule's severity or gives it its own impact
     * thresholds, {@code severityThresholds} are the thresholds of every other rule.
     */
    record Rules(List<String> enable, List<String> disable, Map<String, SeveritySetting> severity,
                 Map<String, Map<String, Object>> params, Thresholds severityThresholds) {
        Rules {
            enable = enable == null ? List.of() : enable;
            disable = disable == null ? List.of() : disable;
            severity = severity == null ? Map.of() : severity;
            params = params == null ? Map.of() : params;
        }
    }

    /** {@code rules.severityThresholds}: shares of the step (percent) from which a finding is an error / a warning. */
    record Thresholds(Double error, Double warning) {
    }

    /** A budget's bounds, in the metric's configuration unit (ms for durations, % for shares). */
    record Bounds(Double min, Double max) {
    }

    /** {@code sarif:} options; {@code anchor} is a repository-relative file for results without a source line. */
    record Sarif(String anchor) {
    }
}
