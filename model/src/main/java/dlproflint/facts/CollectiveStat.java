package dlproflint.facts;

/**
 * Communication kernels (NCCL/RCCL collectives) and the distributed layout.
 *
 * @param kernels      number of collective kernel launches
 * @param gpuTimeNs    their total GPU time
 * @param shareOfKernelTimePct their share of all kernel time
 */
public record CollectiveStat(long kernels, long gpuTimeNs, double shareOfKernelTimePct) {
    public CollectiveStat {
        shareOfKernelTimePct = Percent.bounded(shareOfKernelTimePct); // a subset of the kernels' time
    }
}
