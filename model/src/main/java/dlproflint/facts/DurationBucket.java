package dlproflint.facts;

/**
 * Kernels whose duration is below {@code upToNs} and at or above the previous bucket's bound.
 *
 * @param upToNs  exclusive upper bound ({@link Long#MAX_VALUE} for the last bucket)
 * @param gapNs   idle time on the kernel's stream between each such kernel and the next operation there,
 *                each gap counted up to 30 µs (HTA's bound for a launch gap between consecutive kernels;
 *                longer gaps have other causes)
 */
public record DurationBucket(long upToNs, long kernels, long totalNs, long gapNs) {
}
