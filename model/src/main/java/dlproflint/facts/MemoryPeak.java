package dlproflint.facts;

/**
 * Peak device memory of the profiled process on one GPU, from the caching allocator's own records
 * (PyTorch profiler {@code [memory]} events with {@code profile_memory=True}). Absent when the profile has
 * no such records: device memory is then unknown, not zero.
 *
 * @param events              allocator events (allocations and frees) on this device
 * @param peakAllocatedBytes  largest {@code Total Allocated}: memory held by live tensors
 * @param peakReservedBytes   largest {@code Total Reserved}: memory the caching allocator holds (what
 *                            {@code nvidia-smi} shows, minus the CUDA context); -1 when not recorded
 */
public record MemoryPeak(int deviceId, long events, long peakAllocatedBytes, long peakReservedBytes) {
}
