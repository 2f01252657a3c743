package dlproflint.facts;

/**
 * Device or pinned-host allocation/free calls ({@code cudaMalloc*}, {@code cudaFree*},
 * {@code cudaHostAlloc}, ...) of one API, and how they spread over the steady-state iterations
 * (the aggregated iterations except the first, which includes warm-up).
 *
 * @param steadyIterations     number of steady-state iterations considered
 * @param iterationsWithCalls  how many of them called the API
 * @param steadyCalls          calls inside them
 */
public record AllocStat(String api, String category, long calls, long totalNs, long wallNs,
                        int steadyIterations, int iterationsWithCalls, long steadyCalls, long steadyNs) {
    /** Time in the calls as a share of the wall clock, 0..100 (calls on several threads may overlap: see SyncApiStat). */
    public double shareOfRunPct() {
        return Percent.of(totalNs, wallNs);
    }
}
