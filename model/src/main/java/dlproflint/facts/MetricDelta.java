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
 * @param noise         what {@code spread} measures: {@link #STEPS} (the steps of one run of each side),
 *                      {@link #RUNS} (between runs: several captures of a side, each reduced to its median), or
 *                      {@link #NONE} (single values)
 * @param baseRuns      captures of the base the values were taken from (1 for {@code compare BASE HEAD})
 * @param headRuns      captures of the head
 */
public record MetricDelta(String metric, String unit, boolean higherIsWorse, Double base, Double head,
                          int baseSamples, int headSamples, double baseCenter, double headCenter, double spread,
                          double pValue, String noise, int baseRuns, int headRuns) {
    /** {@code spread} is the per-step noise within one run of each side. */
    public static final String STEPS = "steps";
    /** {@code spread} is the noise between runs: the pooled standard deviation of the runs' own values. */
    public static final String RUNS = "runs";
    /** Single values: no noise measured. */
    public static final String NONE = "none";

    public MetricDelta {
        if (noise == null) noise = baseSamples > 0 && headSamples > 0 ? STEPS : NONE;
        baseRuns = Math.max(1, baseRuns);
        headRuns = Math.max(1, headRuns);
    }

    /** One run of each side: per-step samples ({@code samples > 0}) or single values. */
    public MetricDelta(String metric, String unit, boolean higherIsWorse, Double base, Double head, int baseSamples,
                       int headSamples, double baseCenter, double headCenter, double spread, double pValue) {
        this(metric, unit, higherIsWorse, base, head, baseSamples, headSamples, baseCenter, headCenter, spread, pValue,
                null, 1, 1);
    }

    /** The spread is between runs (several captures), not between the steps of one run. */
    public boolean betweenRuns() {
        return RUNS.equals(noise);
    }

    /**
     * Whether the head is worse by more than {@code factor} spreads where the noise can be judged: between runs
     * always, on per-step samples when each side has at least {@code minSteps}; with fewer steps or single values
     * there is no noise to judge against, so yes.
     */
    public boolean beyondNoise(double minSteps, double factor) {
        if (betweenRuns()) return worseBySpreads() > factor;
        return samples() < minSteps || worseBySpreads() > factor;
    }

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
