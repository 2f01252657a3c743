package dlproflint.cli.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import dlproflint.findings.Severity;

import java.util.Map;
import java.util.Set;

/**
 * One rule's entry under {@code rules.severity}: a pinned severity ({@code error}, {@code warning}, {@code note}),
 * or its own impact thresholds ({@code {error: 10, warning: 2}}, shares of the step in percent; a missing one
 * keeps the global value).
 *
 * @param pinned    the pinned severity, or null when thresholds are given
 * @param errorPct  the rule's error threshold, or null (the global one)
 * @param warningPct the rule's warning threshold, or null (the global one)
 */
record SeveritySetting(Severity pinned, Double errorPct, Double warningPct) {
    static final String EXPECTED = "a severity (error, warning or note) or thresholds {error: <% of the step>, warning: <%>}";

    /** Jackson hands over the YAML value as written: a string, or a mapping. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static SeveritySetting of(Object value) {
        if (value instanceof String s) {
            try {
                return new SeveritySetting(Severity.parse(s), null, null);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + s + "' is not " + EXPECTED);
            }
        }
        if (value instanceof Map<?, ?> m && !m.isEmpty()) {
            for (Object k : m.keySet()) {
                if (!Set.of("error", "warning").contains(String.valueOf(k))) {
                    throw new IllegalArgumentException("unknown key '" + k + "' in the thresholds (expected error and/or warning)");
                }
            }
            return new SeveritySetting(null, pct(m.get("error"), "error"), pct(m.get("warning"), "warning"));
        }
        throw new IllegalArgumentException("expected " + EXPECTED);
    }

    static Double pct(Object v, String name) {
        if (v == null) return null;
        if (!(v instanceof Number n)) throw new IllegalArgumentException("the " + name + " threshold must be a number, not '" + v + "'");
        return n.doubleValue();
    }
}
