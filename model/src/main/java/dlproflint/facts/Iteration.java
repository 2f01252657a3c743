package dlproflint.facts;

/**
 * One training iteration (a step): a key-node interval (DLProf's rule), a step marker's range, or the
 * interval between two inferred step boundaries; {@link IterationSummary#method()} says which.
 *
 * @param index        0-based iteration number
 * @param aggregated   inside the {@code --iter-start/--iter-stop} aggregation range
 * @param gpuTimeNs    kernel time launched in the iteration
 * @param tcTimeNs     tensor-core kernel time
 * @param memoryTimeNs memcpy + memset time
 * @param dataLoaderNs time inside DataLoader calls during the step (overlaps counted once), -1 unknown
 * @param syncNs       time the host blocked in synchronisation calls (cudaDeviceSynchronize, ...) during the
 *                     step, -1 unknown
 * @param gpuIdleNs    time of the step in which the GPU ran nothing (no kernel, copy or memset), averaged over
 *                     the GPUs that did work, -1 unknown
 */
public record Iteration(int index, long startNs, long endNs, boolean aggregated, long kernelCount,
                        long gpuTimeNs, long tcTimeNs, long memoryTimeNs, long dataLoaderNs, long syncNs,
                        long gpuIdleNs) {
    public static final long UNKNOWN = -1;

    /** An iteration whose per-step activity (DataLoader, synchronisation, GPU idle) was not measured. */
    public Iteration(int index, long startNs, long endNs, boolean aggregated, long kernelCount, long gpuTimeNs,
                     long tcTimeNs, long memoryTimeNs) {
        this(index, startNs, endNs, aggregated, kernelCount, gpuTimeNs, tcTimeNs, memoryTimeNs, UNKNOWN, UNKNOWN,
                UNKNOWN);
    }

    public long durationNs() {
        return endNs - startNs;
    }

    public long nonTcTimeNs() {
        return gpuTimeNs - tcTimeNs;
    }
}
