package dlproflint.extract.common;

import dlproflint.facts.OpKind;

/**
 * Tensor-core eligibility of ops, judged by the op type (convolutions, GEMMs, attention and RNNs, as
 * DLProf reports them): {@link OpKind}, the one place that reads op types. Whether a kernel ran on tensor cores
 * is the kernel catalogue's business ({@link dlproflint.extract.kernels.KernelCatalogue}).
 */
public final class TensorCores {
    private TensorCores() {
    }

    /** Op type as reported (e.g. {@code conv2d}, {@code linear}, {@code ConvolutionBackward0}). */
    public static boolean opTypeEligible(String opType) {
        return OpKind.of(opType).tensorCoreEligible();
    }
}
