package dlproflint.facts;

/**
 * Host and software stack. Any field may be null when the profile does not record it.
 *
 * @param framework  detected framework: {@code pytorch}, {@code tensorflow}, {@code tensorrt}, {@code jax} or null
 * @param frameworkVersion version string when recorded (DLProf's SystemInfo / Kineto metadata)
 * @param distributedRank rank of this process in a distributed job, or -1
 * @param worldSize  world size of a distributed job, or 0 when not distributed / unknown
 */
public record SystemInfo(String cpuModel, String hostname, String driverVersion, String cudaVersion,
                         String cudnnVersion, String framework, String frameworkVersion,
                         int distributedRank, int worldSize) {
    public static SystemInfo unknown() {
        return new SystemInfo(null, null, null, null, null, null, null, -1, 0);
    }
}
