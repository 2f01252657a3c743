package dlproflint.facts;

/**
 * One kernel name launched by one op on one device, aggregated over its launches (DLProf's kernel report).
 *
 * @param name      short name
 * @param longName  demangled name with template arguments and parameters
 * @param opId      owning op's id ({@code unassociated_<name>} when launched outside any range)
 * @param gpuTime   kernel durations on the GPU
 * @param apiTime   durations of the launching API calls on the CPU
 * @param usesTc    the name identifies a tensor-core kernel
 * @param grid      grid dims of the first launch, e.g. {@code 8,1,1}
 * @param block     block dims of the first launch
 * @param precision the number format the name says the kernel computes in (kernel catalogue), null when
 *                  the name does not say
 * @param family    the kernel catalogue's library and kernel family ({@code cublaslt-nvjet}, {@code pytorch-native},
 *                  ...), null when no catalogue entry knows the name
 * @param kind      what the kernel computes (GEMM, convolution, attention, communication, other), decided by the
 *                  reader's kernel catalogue: rules read it instead of the name ({@link KernelKind#OTHER} when unknown)
 */
public record KernelFact(String name, String longName, String opId, int deviceId, Stat gpuTime,
                         Stat apiTime, boolean usesTc, String grid, String block, Precision precision, String family,
                         KernelKind kind) {
    public KernelFact {
        if (kind == null) kind = KernelKind.OTHER;
    }

    /** A kernel whose precision, family and kind are not known. */
    public KernelFact(String name, String longName, String opId, int deviceId, Stat gpuTime, Stat apiTime,
                      boolean usesTc, String grid, String block) {
        this(name, longName, opId, deviceId, gpuTime, apiTime, usesTc, grid, block, null, null, KernelKind.OTHER);
    }

    /** A kernel whose catalogue family and kind are not known. */
    public KernelFact(String name, String longName, String opId, int deviceId, Stat gpuTime, Stat apiTime,
                      boolean usesTc, String grid, String block, Precision precision) {
        this(name, longName, opId, deviceId, gpuTime, apiTime, usesTc, grid, block, precision, null, KernelKind.OTHER);
    }

    /** The name to show people: {@link KernelNames#display}. */
    public String displayName() {
        return KernelNames.display(name, longName);
    }

    public long calls() {
        return gpuTime.count();
    }
}
