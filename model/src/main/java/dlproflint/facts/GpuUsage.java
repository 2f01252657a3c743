package dlproflint.facts;

/**
 * Per-device activity over the analysed range.
 *
 * @param busyNs        union of kernel, memcpy and memset intervals on the device (overlap counted once)
 * @param kernelNs      sum of kernel durations on the device
 * @param spanNs        the analysed wall-clock span the utilization is measured against
 * @param utilizationPct union of the device's kernel intervals inside the span / spanNs * 100 (kernel time
 *                      only, as DLProf reports "GPU Utilization"; overlapping kernels counted once, so 0..100)
 */
public record GpuUsage(int deviceId, long kernelCount, long kernelNs, long memoryOpCount, long busyNs,
                       long spanNs, double utilizationPct) {
    public GpuUsage {
        utilizationPct = Percent.bounded(utilizationPct);
    }

    /**
     * The device ran a kernel, copy or memset; or, where only aggregates survive (a DLProf database
     * without kernel rows), it was busy for some of the span.
     */
    public boolean used() {
        return kernelCount > 0 || memoryOpCount > 0 || busyNs > 0;
    }
}
