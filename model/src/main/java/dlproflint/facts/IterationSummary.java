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

    /** coefficient of variation of aggregated iteration durations, in percent */
    public double variationPct() {
        return avgDurationNs <= 0 ? 0 : 100.0 * stdDevNs / avgDurationNs;
    }
}
