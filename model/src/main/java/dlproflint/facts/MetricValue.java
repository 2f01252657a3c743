package dlproflint.facts;

/**
 * One key metric of the profile ({@link KeyMetrics}), as a fact rules can match: budgets compare it with the
 * configured bounds. Only metrics the profile carries exist as facts; a rule that needs one the profile lacks
 * sees no {@code MetricValue} for it.
 *
 * @param metric the metric's key ({@code step-time}, {@code gpu-utilization}, ... see {@link KeyMetrics.Metric})
 * @param value  in {@code unit}
 * @param unit   {@code ns} or {@code %}
 */
public record MetricValue(String metric, double value, String unit) {
}
