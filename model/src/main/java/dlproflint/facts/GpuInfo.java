package dlproflint.facts;

/**
 * A GPU present on the profiled target, used or not.
 *
 * @param deviceId         id used by kernel/memcpy records ({@code deviceId} columns)
 * @param name             product name as recorded, or {@link #UNKNOWN_NAME}
 * @param smCount          streaming multiprocessors, 0 when unknown
 * @param totalMemoryBytes device memory, 0 when unknown
 * @param computeMajor     compute capability (major); meaningful only when {@code capability} is not
 *                         {@link Capability#UNKNOWN} (it is then 0)
 * @param usedMemoryBytes  peak memory in use during the run when the profile records it, else -1
 * @param capability       how the compute capability is known: recorded by the profiler, a lower bound
 *                         proven by the kernels that ran, or unknown
 */
public record GpuInfo(int deviceId, String name, int smCount, long totalMemoryBytes,
                      int computeMajor, int computeMinor, long usedMemoryBytes, Capability capability) {
    /** Name of a GPU the profile does not describe. */
    public static final String UNKNOWN_NAME = "unknown GPU";

    /** How a GPU's compute capability is known. */
    public enum Capability {
        /** recorded by the profiler (device properties) */
        REPORTED,
        /** at least {@code computeMajor.computeMinor}: kernels built for that generation ran on it */
        AT_LEAST,
        /** nothing in the profile says */
        UNKNOWN
    }

    /** Whether the GPU has tensor cores, as far as the profile can tell. */
    public enum TensorCoreSupport { YES, NO, UNKNOWN }

    public GpuInfo {
        if (capability == null) capability = computeMajor > 0 ? Capability.REPORTED : Capability.UNKNOWN;
        if (computeMajor <= 0 || capability == Capability.UNKNOWN) {
            // an unknown capability is not "0.0": rules and reports must not read it as a pre-Volta GPU
            capability = Capability.UNKNOWN;
            computeMajor = 0;
            computeMinor = 0;
        }
        if (name == null || name.isBlank()) name = UNKNOWN_NAME;
    }

    /** A GPU whose compute capability the profiler recorded (0 = not recorded). */
    public GpuInfo(int deviceId, String name, int smCount, long totalMemoryBytes, int computeMajor, int computeMinor,
                   long usedMemoryBytes) {
        this(deviceId, name, smCount, totalMemoryBytes, computeMajor, computeMinor, usedMemoryBytes, null);
    }

    /** A GPU known only by its id (work ran on it; the profile does not describe it). */
    public static GpuInfo unknown(int deviceId, long usedMemoryBytes) {
        return new GpuInfo(deviceId, UNKNOWN_NAME, 0, 0, 0, 0, usedMemoryBytes, Capability.UNKNOWN);
    }

    public boolean capabilityKnown() {
        return capability != Capability.UNKNOWN;
    }

    /** {@code 8.0}, {@code >=7.0} (a lower bound) or {@code unknown}. */
    public String computeCapability() {
        return switch (capability) {
            case REPORTED -> computeMajor + "." + computeMinor;
            case AT_LEAST -> ">=" + computeMajor + "." + computeMinor;
            case UNKNOWN -> "unknown";
        };
    }

    /**
     * Volta (7.0) and newer have tensor cores (the GTX 16 series, 7.5 without them, is the known exception
     * a recorded name cannot reveal here). Unknown when the capability is unknown, or only a lower bound
     * below 7.0.
     */
    public TensorCoreSupport tensorCores() {
        if (capability == Capability.UNKNOWN) return TensorCoreSupport.UNKNOWN;
        if (computeMajor >= 7) return TensorCoreSupport.YES;
        return capability == Capability.REPORTED ? TensorCoreSupport.NO : TensorCoreSupport.UNKNOWN;
    }

    /** The GPU is known to have tensor cores. */
    public boolean hasTensorCores() {
        return tensorCores() == TensorCoreSupport.YES;
    }

    /** The GPU is known to have no tensor cores (a recorded pre-Volta capability). */
    public boolean lacksTensorCores() {
        return tensorCores() == TensorCoreSupport.NO;
    }

    /** Share of device memory in use, 0..100, or -1 when unknown. */
    public double memoryUsedPct() {
        return usedMemoryBytes < 0 || totalMemoryBytes <= 0 ? -1 : Percent.of(usedMemoryBytes, totalMemoryBytes);
    }
}
