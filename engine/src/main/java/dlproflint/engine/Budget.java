package dlproflint.engine;

import dlproflint.facts.KeyMetrics;
import dlproflint.findings.Units;

/**
 * A bound on one key metric from the configuration's {@code budgets:}, inserted as a fact for the built-in
 * {@code budget} pack: {@code Budget(metric == "step-time")} next to the profile's
 * {@link dlproflint.facts.MetricValue} for that metric. Values are in the metric's own unit (ns or %).
 *
 * @param metric the metric's key ({@link KeyMetrics.Metric#key()})
 * @param min    lower bound, or null
 * @param max    upper bound, or null
 * @param origin where it was set ({@code .dlprof-lint.yml:12}), for messages
 */
public record Budget(String metric, Double min, Double max, String origin) implements java.io.Serializable {
    public Budget {
        KeyMetrics.Metric m = KeyMetrics.Metric.ofKey(metric);
        if (m == null) {
            throw new IllegalArgumentException("unknown metric '" + metric + "' (known: " + KeyMetrics.Metric.keys() + ")");
        }
        if (min == null && max == null) throw new IllegalArgumentException("budget on " + metric + " needs min or max");
        check(m, "min", min);
        check(m, "max", max);
        if (min != null && max != null && min > max) {
            throw new IllegalArgumentException("budget on " + metric + ": min (" + text(m, min)
                    + ") is above max (" + text(m, max) + ")");
        }
        origin = origin == null ? "configuration" : origin;
    }

    private static void check(KeyMetrics.Metric m, String which, Double v) {
        if (v == null) return;
        if (!Double.isFinite(v) || v < 0 || ("%".equals(m.unit()) && v > 100)) {
            throw new IllegalArgumentException("budget on " + m.key() + ": " + which + " must be "
                    + ("%".equals(m.unit()) ? "a share between 0 and 100" : "a duration of 0 ms or more"));
        }
    }

    /**
     * A budget as written in a configuration file: durations in milliseconds, shares in percent
     * ({@link KeyMetrics.Metric#configUnit()}). Throws IllegalArgumentException naming the problem.
     */
    public static Budget fromConfig(String metric, Double min, Double max, String origin) {
        KeyMetrics.Metric m = KeyMetrics.Metric.ofKey(metric);
        if (m == null) return new Budget(metric, min, max, origin); // throws, listing the metrics
        return new Budget(metric, min == null ? null : m.fromConfigUnit(min), max == null ? null : m.fromConfigUnit(max), origin);
    }

    public KeyMetrics.Metric kind() {
        return KeyMetrics.Metric.ofKey(metric);
    }

    /** A value of this budget's metric for people: {@code 41.2 ms} or {@code 18.0%}. */
    public String format(double v) {
        return text(kind(), v);
    }

    private static String text(KeyMetrics.Metric m, double v) {
        return "ns".equals(m.unit()) ? Units.duration(v) : Units.pct(v);
    }

    /** {@code ≤ 250.0 ms}, {@code ≥ 70.0%}, {@code between 30.0% and 60.0%}. */
    public String bounds() {
        if (min != null && max != null) return "between " + format(min) + " and " + format(max);
        return min != null ? "≥ " + format(min) : "≤ " + format(max);
    }

    /** Whether {@code value} breaks the budget. */
    public boolean brokenBy(double value) {
        return min != null && value < min || max != null && value > max;
    }
}
