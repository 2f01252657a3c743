package dlproflint.facts;

/**
 * One training iteration (a step): a key-node interval (DLProf's rule), a step marker's range, or the
 * interval between two inferred step boundaries; {@link IterationSummary#method()} says which. Its CPU window
 * ({@code startNs..endNs}) is where the host ran it; the GPU ran the work it launched later, in its GPU span
 * ({@code gpuStartNs..gpuEndNs}). Every GPU figure counts the work the step <em>launched</em> (its kernels, copies
 * and memsets, by their launch call), wherever and whenever the GPU ran it; the step's duration is measured on the
 * side that bound the loop ({@link IterationSummary#binding()}): the GPU spans in a GPU-bound loop, the CPU windows
 * in a host-bound one.
 *
 * @param index           0-based iteration number
 * @param startNs         start of the step's CPU window (its range or key-node interval on the host)
 * @param endNs           end of the CPU window
 * @param aggregated      inside the aggregation range (the steady window by default, or {@code --iter-start/--iter-stop})
 * @param kernelCount     kernels launched in the step
 * @param gpuTimeNs       their total duration
 * @param tcTimeNs        tensor-core kernel time among them
 * @param memoryTimeNs    memcpy + memset time launched in the step
 * @param dataLoaderNs    time the host spent in DataLoader calls during the CPU window (overlaps counted once), -1 unknown
 * @param syncNs          time the host blocked in synchronisation calls (cudaDeviceSynchronize, ...) during the CPU
 *                        window, -1 unknown
 * @param gpuIdleNs       of the step's duration, the time none of its own GPU work ran ({@code stepNs − gpuBusyNs}),
 *                        averaged over the GPUs that ran work, -1 unknown
 * @param gpuStartNs      start of the first GPU activity the step launched, -1 when it launched none (or unknown)
 * @param gpuEndNs        end of the last one, -1 when it launched none
 * @param stepNs          the step's duration on the binding side: its GPU span in a GPU-bound loop (the part after the
 *                        earlier steps' GPU work ended, when steps overlap on the GPU), the span from its CPU window's
 *                        start to the next step's in a host-bound one; 0 = the CPU window's length
 * @param gpuBusyNs       time any of the step's own GPU work ran (overlapping work counted once), averaged over the GPUs
 *                        that ran work, -1 unknown
 * @param gpuSpanIdleNs   of {@code gpuIdleNs}, the part inside the GPU span (gaps between the step's own work: launch
 *                        latency, dependencies, host syncs in the middle of the step); the rest is time the GPU waited
 *                        for the host before or after it. -1 unknown
 */
public record Iteration(int index, long startNs, long endNs, boolean aggregated, long kernelCount,
                        long gpuTimeNs, long tcTimeNs, long memoryTimeNs, long dataLoaderNs, long syncNs,
                        long gpuIdleNs, long gpuStartNs, long gpuEndNs, long stepNs, long gpuBusyNs,
                        long gpuSpanIdleNs) {
    public static final long UNKNOWN = -1;

    public Iteration {
        if (stepNs <= 0) stepNs = endNs - startNs;
    }

    /** An iteration whose per-step activity (DataLoader, synchronisation, GPU idle) was not measured. */
    public Iteration(int index, long startNs, long endNs, boolean aggregated, long kernelCount, long gpuTimeNs,
                     long tcTimeNs, long memoryTimeNs) {
        this(index, startNs, endNs, aggregated, kernelCount, gpuTimeNs, tcTimeNs, memoryTimeNs, UNKNOWN, UNKNOWN,
                UNKNOWN);
    }

    /** An iteration measured on the CPU window only (no GPU span). */
    public Iteration(int index, long startNs, long endNs, boolean aggregated, long kernelCount, long gpuTimeNs,
                     long tcTimeNs, long memoryTimeNs, long dataLoaderNs, long syncNs, long gpuIdleNs) {
        this(index, startNs, endNs, aggregated, kernelCount, gpuTimeNs, tcTimeNs, memoryTimeNs, dataLoaderNs, syncNs,
                gpuIdleNs, UNKNOWN, UNKNOWN, 0, UNKNOWN, UNKNOWN);
    }

    /** The step's duration on the binding side ({@link #stepNs}). */
    public long durationNs() {
        return stepNs;
    }

    /** The length of the CPU window. */
    public long cpuNs() {
        return endNs - startNs;
    }

    /** The length of the GPU span (0 when the step launched no GPU work). */
    public long gpuSpanNs() {
        return gpuStartNs < 0 || gpuEndNs < gpuStartNs ? 0 : gpuEndNs - gpuStartNs;
    }

    public long nonTcTimeNs() {
        return gpuTimeNs - tcTimeNs;
    }

    /**
     * GPU busy time over the step's duration, 0..100 (-1 unknown); busy time beyond the duration (the step's work
     * running beside the previous step's, when steps overlap on the GPU) counts as the whole step.
     */
    public double gpuUtilizationPct() {
        return gpuBusyNs < 0 || stepNs <= 0 ? -1 : Percent.of(Math.min(gpuBusyNs, stepNs), stepNs);
    }
}
