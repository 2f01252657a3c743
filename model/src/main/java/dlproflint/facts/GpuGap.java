package dlproflint.facts;

/**
 * An idle interval of one GPU for one process, between its first and last GPU operation (kernel,
 * memcpy, memset; profiler overhead counts as busy, as in {@code nsys analyze gpu_gaps}).
 * Readers record gaps of at least 1 ms (the largest first, at most a few hundred per device);
 * rules apply their own threshold.
 *
 * @param iteration the step (0-based iteration) that launched the work ending the gap - what the GPU waited for -,
 *                  or -1 when that work was launched before the capture
 */
public record GpuGap(int deviceId, long pid, long startNs, long durationNs, int iteration) {
}
