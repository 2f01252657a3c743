package dlproflint.extract.kernels;

import dlproflint.facts.KernelKind;
import dlproflint.facts.Precision;

/**
 * What the kernel catalogue knows about one kernel name.
 *
 * @param family      library and kernel family ({@code cutlass3-tc}, {@code pytorch-native}, ...), null when
 *                    no catalogue entry matches the name
 * @param precision   the number format the kernel computes in, null when the name does not say
 * @param tensorCores the kernel runs its math on tensor cores
 * @param minMajor    lowest compute capability the kernel runs on (major), -1 when the name says nothing
 * @param minMinor    its minor part, -1 when the name says nothing
 * @param kind        what the kernel computes (GEMM, convolution, attention, communication, other)
 */
public record KernelClass(String family, Precision precision, boolean tensorCores, int minMajor, int minMinor,
                          KernelKind kind) {
    /** A name no catalogue entry matches: not counted as tensor-core work, listed as unknown. */
    public static final KernelClass UNKNOWN = new KernelClass(null, null, false, -1, -1, KernelKind.OTHER);

    public KernelClass {
        if (kind == null) kind = KernelKind.OTHER;
    }

    /** The same class of a kernel doing {@code k}. */
    KernelClass withKind(KernelKind k) {
        return k == kind ? this : new KernelClass(family, precision, tensorCores, minMajor, minMinor, k);
    }

    public boolean known() {
        return family != null;
    }

    /** The name proves the GPU is at least this compute capability. */
    public boolean hasMinCapability() {
        return minMajor > 0;
    }
}
