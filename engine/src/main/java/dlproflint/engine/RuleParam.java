package dlproflint.engine;

/**
 * A rule threshold, inserted as a fact for every parameter a rule declares in its
 * {@code @params("name=default,...")} annotation, with configuration overrides applied.
 * Rules match it on the left-hand side:
 * {@code RuleParam(rule == "dlprof/underutilized-gpu", name == "maxGpuUtilPct", $max : value)}.
 */
public record RuleParam(String rule, String name, double value) {
}
