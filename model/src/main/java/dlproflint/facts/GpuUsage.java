package dlproflint.facts;

/**
 * Per-device activity over the analysed range.
 *
 * @param busyNs        union of kernel, memcpy and memset intervals on the device (overlap counted once)
 * @param kernelNs      sum of kernel durations on the device
 * @param spanNs        the analysed wall-clock span the utilization is measured against
 * @param utilizationPct busyNs / spanNs * 100 (kernel time only, as DLProf reports "GPU Utilization")
 */
public record GpuUsage(int deviceId, long kernelCount, long kernelNs, long memoryOpCount, long busyNs,
                       long spanNs, double utilizationPct) {
    public boolean used() {
        return kernelCount > 0 || memoryOpCount > 0;
    }
}
