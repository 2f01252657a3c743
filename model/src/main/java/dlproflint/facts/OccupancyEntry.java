package dlproflint.facts;

/**
 * One kernel name's launch configuration estimates, time-weighted over its launches.
 *
 * @param occupancyPct time-weighted {@code est. achieved occupancy %}
 * @param blocksPerSm  time-weighted {@code blocks per SM}
 */
public record OccupancyEntry(String kernel, long calls, long gpuNs, double occupancyPct, double blocksPerSm) {
}
