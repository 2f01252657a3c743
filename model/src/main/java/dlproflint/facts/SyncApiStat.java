package dlproflint.facts;

import java.util.List;

/**
 * Host-blocking synchronisation calls of one API ({@code cudaDeviceSynchronize},
 * {@code cudaStreamSynchronize}, ...), with the NVTX ranges they were called in.
 *
 * @param ranges innermost enclosing NVTX ranges, most calls first, as {@code "name: N calls"} (at most 5)
 */
public record SyncApiStat(String api, long calls, long totalNs, long maxNs, long wallNs, List<String> ranges) {
    public SyncApiStat {
        ranges = ranges == null ? List.of() : List.copyOf(ranges);
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
