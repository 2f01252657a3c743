package dlproflint.facts;

/**
 * One key metric ({@link KeyMetrics.Metric}) of a base and a head run, compared by {@code dlprof-lint compare}.
 * Where both profiles were split into steps, the comparison is of per-step distributions over the aggregated
 * iterations (medians, and their robust spread); otherwise of the two single values ({@code samples() == 0}).
 *
 * @param metric        the metric's key ({@code step-time}, {@code tensor-core-share}, ...)
 * @param unit          {@code ns} or {@code %}
 * @param higherIsWorse which direction is a regression
 * @param base          the base profile's value (its {@link KeyMetrics}), or null when it lacks the metric
 * @param head          the head profile's value, or null
 * @param baseSamples   per-step samples of the base (0 when the metric is compared as single values)
 * @param headSamples   per-step samples of the head
 * @param baseCenter    the base's typical value: the median of its per-step samples, else {@code base}
 * @param headCenter    the head's typical value, likewise
 * @param spread        run-to-run noise: the pooled robust standard deviation (1.4826 × MAD) of the samples,
 *                      floored at 0.5% of the base's center; 0 for single values
 * @param pValue        two-sided Mann-Whitney rank test of the samples (normal approximation), or NaN
 */
public record MetricDelta(String metric, String unit, boolean higherIsWorse, Double base, Double head,
                          int baseSamples, int headSamples, double baseCenter, double headCenter, double spread,
                          double pValue) {

    /** Both profiles carry the metric. */
    public boolean present() {
        return base != null && head != null;
    }

    /** Per-step samples on the smaller side (0: single values). */
    public int samples() {
        return Math.min(baseSamples, headSamples);
    }

    /** Head minus base, in the metric's unit. */
    public double shift() {
        return headCenter - baseCenter;
    }

    /** How much worse the head is, in the metric's unit (negative when it improved). */
    public double worseBy() {
        return higherIsWorse ? shift() : -shift();
    }

    /** {@link #worseBy()} relative to the base, in percent (of the base value; percentage points count against 100). */
    public double worseByPct() {
        double denom = "%".equals(unit) ? Math.max(Math.abs(baseCenter), 1.0) : Math.abs(baseCenter);
        if (denom == 0) return worseBy() > 0 ? Double.POSITIVE_INFINITY : 0;
        return 100.0 * worseBy() / denom;
    }

    /** {@link #worseBy()} in units of the run-to-run spread (infinite when there is no spread to compare with). */
    public double worseBySpreads() {
        if (spread <= 0) return worseBy() > 0 ? Double.POSITIVE_INFINITY : 0;
        return worseBy() / spread;
    }
}
