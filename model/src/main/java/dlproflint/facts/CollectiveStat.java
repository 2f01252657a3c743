package dlproflint.facts;

/**
 * Communication kernels (NCCL/RCCL collectives) and how much of the analysed range they leave exposed.
 *
 * @param kernels      number of collective kernel launches
 * @param gpuTimeNs    their total GPU time
 * @param shareOfKernelTimePct their share of all kernel time
 * @param busyNs       time at least one collective kernel ran inside the analysed range (the aggregated
 *                     steps), overlapping kernels counted once; 0 when not measured
 * @param exposedNs    the part of {@code busyNs} during which no other kernel, copy or memset ran on the
 *                     same GPU: communication the computation did not hide (the TensorBoard plugin's
 *                     "communication" in its step breakdown, TraceLens' {@code exposed_comm_time})
 * @param windowNs     the analysed range {@code busyNs} and {@code exposedNs} were measured in, 0 when not measured
 */
public record CollectiveStat(long kernels, long gpuTimeNs, double shareOfKernelTimePct, long busyNs, long exposedNs,
                             long windowNs) {
    public CollectiveStat {
        shareOfKernelTimePct = Percent.bounded(shareOfKernelTimePct); // a subset of the kernels' time
    }

    /** Counts only, exposure not measured. */
    public CollectiveStat(long kernels, long gpuTimeNs, double shareOfKernelTimePct) {
        this(kernels, gpuTimeNs, shareOfKernelTimePct, 0, 0, 0);
    }

    /** Exposed communication as a share of the analysed range, 0..100 (0 when not measured). */
    public double exposedPct() {
        return windowNs <= 0 ? 0 : Percent.of(exposedNs, windowNs);
    }

    /** Share of the communication time hidden behind other GPU work, 0..100 (HTA's comm-comp overlap). */
    public double overlapPct() {
        return Percent.of(busyNs - exposedNs, busyNs);
    }
}
