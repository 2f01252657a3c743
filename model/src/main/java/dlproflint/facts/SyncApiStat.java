package dlproflint.facts;

import java.util.List;

/**
 * Host-blocking synchronisation calls of one API ({@code cudaDeviceSynchronize},
 * {@code cudaStreamSynchronize}, ...), with the NVTX ranges they were called in.
 *
 * @param ranges           innermost enclosing NVTX ranges, most calls first, as {@code "name: N calls"} (at most 5)
 * @param steadyIterations number of steady-state iterations (the aggregated ones except a first one that
 *                         includes start-up, as for {@link AllocStat}); 0 when the profile has no steps
 * @param steadyCalls      calls inside them
 * @param steadyNs         host time blocked in those calls
 * @param idleAfterNs      GPU idle time right after the calls returned, until the GPU's next operation (the
 *                         pipeline drained by the call and refilled by the host), over all calls; averaged over the
 *                         process's GPUs. A call that returned while the GPU was still busy (another stream) counts 0.
 * @param steadyIdleAfterNs the same for the calls inside the steady iterations
 */
public record SyncApiStat(String api, long calls, long totalNs, long maxNs, long wallNs, List<String> ranges,
                          int steadyIterations, long steadyCalls, long steadyNs, long idleAfterNs,
                          long steadyIdleAfterNs) {
    public SyncApiStat {
        ranges = ranges == null ? List.of() : List.copyOf(ranges);
    }

    /** Without a split into steps. */
    public SyncApiStat(String api, long calls, long totalNs, long maxNs, long wallNs, List<String> ranges) {
        this(api, calls, totalNs, maxNs, wallNs, ranges, 0, 0, 0, 0, 0);
    }

    /**
     * Blocked time as a share of the profile's wall clock, 0..100. Calls on several threads can block at
     * the same time, so their summed time can pass the wall clock: the share is of the wall clock and
     * stops at 100 % (the sum itself is {@code totalNs}).
     */
    public double shareOfRunPct() {
        return Percent.of(totalNs, wallNs);
    }
}
