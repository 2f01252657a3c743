package dlproflint.facts;

/**
 * A GPU present on the profiled target, used or not.
 *
 * @param deviceId         id used by kernel/memcpy records ({@code deviceId} columns)
 * @param totalMemoryBytes device memory, 0 when unknown
 * @param usedMemoryBytes  peak memory in use during the run when the profile records it, else -1
 */
public record GpuInfo(int deviceId, String name, int smCount, long totalMemoryBytes,
                      int computeMajor, int computeMinor, long usedMemoryBytes) {
    public String computeCapability() {
        return computeMajor + "." + computeMinor;
    }

    /** Volta (7.0) and newer have tensor cores. */
    public boolean hasTensorCores() {
        return computeMajor >= 7;
    }

    /** Share of device memory in use, 0..100, or -1 when unknown. */
    public double memoryUsedPct() {
        return usedMemoryBytes < 0 || totalMemoryBytes <= 0 ? -1 : 100.0 * usedMemoryBytes / totalMemoryBytes;
    }
}
