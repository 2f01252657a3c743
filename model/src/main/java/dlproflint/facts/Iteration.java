package dlproflint.facts;

/**
 * One training iteration (DLProf key-node rule: intervals bounded by the key node's stop times).
 *
 * @param index        0-based iteration number
 * @param aggregated   inside the {@code --iter-start/--iter-stop} aggregation range
 * @param gpuTimeNs    kernel time launched in the iteration
 * @param tcTimeNs     tensor-core kernel time
 * @param memoryTimeNs memcpy + memset time
 */
public record Iteration(int index, long startNs, long endNs, boolean aggregated, long kernelCount,
                        long gpuTimeNs, long tcTimeNs, long memoryTimeNs) {
    public long durationNs() {
        return endNs - startNs;
    }

    public long nonTcTimeNs() {
        return gpuTimeNs - tcTimeNs;
    }
}
