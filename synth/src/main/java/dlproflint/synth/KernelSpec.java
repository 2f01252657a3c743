package dlproflint.synth;

/**
 * A kernel function as a profile shows it: short and demangled name, launch shape and typical GPU time.
 * One object per distinct kernel; launches refer to it.
 *
 * @param meanNs typical GPU duration; launches vary it by ±10 % (seeded)
 */
public record KernelSpec(String shortName, String demangledName, long meanNs, int registers, int gridX, int gridY,
                         int gridZ, int blockX, int blockY, int blockZ, int staticSharedMemory) {

    /** A kernel with a plausible 1-D launch shape. */
    public static KernelSpec of(String shortName, String demangledName, long meanNs) {
        return new KernelSpec(shortName, demangledName, meanNs, 32, 1024, 1, 1, 128, 1, 1, 0);
    }

    public static KernelSpec of(String name, long meanNs) {
        return of(name, name, meanNs);
    }
}
