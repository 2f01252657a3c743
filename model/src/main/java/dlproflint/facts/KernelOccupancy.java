package dlproflint.facts;

import java.util.List;

/**
 * Kernel launch configurations against the GPU's size, from the profiler's per-kernel estimates (Kineto's
 * {@code est. achieved occupancy %} and {@code blocks per SM}), weighted by kernel time over the analysed
 * range: the TensorBoard plugin's "Est. Achieved Occupancy" and "Est. SM Efficiency". Absent when the
 * kernels carry no such estimates.
 *
 * @param kernels              kernels with the estimates
 * @param kernelNs             their GPU time
 * @param occupancyPct         time-weighted mean of {@code est. achieved occupancy %} (0..100)
 * @param smEfficiencyPct      time-weighted mean of min(blocks per SM, 1) × 100: the share of SMs the kernels
 *                             could keep busy
 * @param underOneBlockPerSmNs GPU time of kernels with fewer blocks than SMs
 * @param lowest               the kernel names losing the most SM time (time × (1 − SM efficiency)), at most 5
 */
public record KernelOccupancy(long kernels, long kernelNs, double occupancyPct, double smEfficiencyPct,
                              long underOneBlockPerSmNs, List<OccupancyEntry> lowest) {
    public KernelOccupancy {
        lowest = lowest == null ? List.of() : List.copyOf(lowest);
    }

    /** Share of the kernels' time in kernels with fewer blocks than SMs, 0..100. */
    public double underOneBlockPerSmPct() {
        return Percent.of(underOneBlockPerSmNs, kernelNs);
    }
}
