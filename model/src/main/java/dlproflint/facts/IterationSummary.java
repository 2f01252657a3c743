package dlproflint.facts;

/**
 * How the profile was split into iterations.
 *
 * @param keyNode       key node (op name) used, or null when none
 * @param keyNodeFound  the key node occurs in the profile
 * @param keyNodeSource {@code user}, {@code default} or {@code none}
 * @param total         number of iterations found (1 when the whole profile is one interval)
 * @param aggStart      first aggregated iteration (inclusive)
 * @param aggStop       last aggregated iteration (inclusive)
 * @param avgDurationNs mean duration of aggregated iterations
 * @param stdDevNs      population standard deviation of aggregated iteration durations
 */
public record IterationSummary(String keyNode, boolean keyNodeFound, String keyNodeSource, int total,
                               int aggStart, int aggStop, double avgDurationNs, double stdDevNs) {
    public int aggregated() {
        return total == 0 ? 0 : aggStop - aggStart + 1;
    }

    /**
     * Coefficient of variation of aggregated iteration durations (standard deviation / mean), in percent.
     * Not a share: a ratio that passes 100 when the spread exceeds the mean; reports print it as a multiple then.
     */
    public double variationPct() {
        return avgDurationNs <= 0 ? 0 : 100.0 * stdDevNs / avgDurationNs;
    }
}
