package dlproflint.facts;

import java.util.List;
import java.util.stream.Stream;

/**
 * What {@code dlprof-lint compare BASE HEAD} found between two runs, inserted with the head's facts so the
 * {@code regression} rule pack can judge it. Built by {@code dlproflint.compare.RunComparison}.
 *
 * @param basePath       the base profile as given
 * @param baseFormat     its format
 * @param basis          {@code step} when both profiles were split into steps (values per step), else {@code run}
 * @param baseSteps      aggregated steps of the base (0 without steps)
 * @param headSteps      aggregated steps of the head
 * @param matchedBy      {@code ops} or {@code kernels}: what the overlap was measured on
 * @param sharedCount    ops (or kernels) present in both
 * @param baseCount      ops (or kernels) of the base
 * @param headCount      ops (or kernels) of the head
 * @param overlapPct     the smaller of the two profiles' shares of GPU time spent in shared ops (or kernels)
 * @param related        the two profiles are runs of the same model ({@code overlapPct >= RELATED_OVERLAP_PCT})
 * @param metrics        key metrics compared, in {@link KeyMetrics.Metric} order
 * @param ops            ops present in either profile with GPU time, largest per-step growth first
 * @param kernels        kernels present in either profile with GPU time, largest per-step growth first
 * @param basePaths      every capture of the base as given ({@code compare BASE... -- HEAD...}); {@code basePath}
 *                       is the median one, whose ops and kernels were compared
 * @param headPaths      every capture of the head; the facts this comparison sits in are the median one's
 */
public record Comparison(String basePath, String baseFormat, String basis, int baseSteps, int headSteps,
                         String matchedBy, int sharedCount, int baseCount, int headCount, double overlapPct,
                         boolean related, List<MetricDelta> metrics, List<OpDelta> ops, List<KernelDelta> kernels,
                         List<String> basePaths, List<String> headPaths) {
    /**
     * Below this overlap the profiles are taken to be different models: per-op comparisons would only list every
     * op as new or gone, so none is judged. Two runs of one model share nearly all their GPU time.
     */
    public static final double RELATED_OVERLAP_PCT = 50;

    public Comparison {
        metrics = metrics == null ? List.of() : List.copyOf(metrics);
        ops = ops == null ? List.of() : List.copyOf(ops);
        kernels = kernels == null ? List.of() : List.copyOf(kernels);
        basePaths = basePaths == null || basePaths.isEmpty() ? (basePath == null ? List.of() : List.of(basePath)) : List.copyOf(basePaths);
        headPaths = headPaths == null ? List.of() : List.copyOf(headPaths);
    }

    /** One capture of each side. */
    public Comparison(String basePath, String baseFormat, String basis, int baseSteps, int headSteps, String matchedBy,
                      int sharedCount, int baseCount, int headCount, double overlapPct, boolean related,
                      List<MetricDelta> metrics, List<OpDelta> ops, List<KernelDelta> kernels) {
        this(basePath, baseFormat, basis, baseSteps, headSteps, matchedBy, sharedCount, baseCount, headCount, overlapPct,
                related, metrics, ops, kernels, null, null);
    }

    /** Several captures of either side were compared (between-run noise). */
    public boolean severalRuns() {
        return basePaths.size() > 1 || headPaths.size() > 1;
    }

    /** This record and its deltas, for a rule session. */
    public Stream<Object> facts() {
        return Stream.of(Stream.of((Object) this), metrics.stream(), ops.stream(), kernels.stream()).flatMap(s -> s);
    }

    /** The delta of one metric, or null. */
    public MetricDelta metric(String key) {
        return metrics.stream().filter(m -> m.metric().equals(key)).findFirst().orElse(null);
    }
}
