package dlproflint.facts;

/**
 * What a GPU kernel computes, as far as the rules need to know, decided once per kernel name by the reader's kernel
 * catalogue and carried on {@link KernelFact#kind()}: rules never read kernel names to tell a GEMM from a
 * convolution. A convolution is cuDNN's or a convolution algorithm's kernel (implicit-GEMM convolutions included),
 * a GEMM a matrix multiplication of cuBLAS, cuBLASLt, CUTLASS or a library built on them; attention kernels
 * (FlashAttention, memory-efficient attention, cuDNN SDPA, fused multi-head attention) are their own kind, and a
 * communication kernel is one {@link CollectiveKind#ofKernel} recognises.
 */
public enum KernelKind {
    GEMM, CONV, ATTENTION, COMMUNICATION, OTHER;

    /** A matrix multiplication or a convolution: the work tensor cores (and TF32) speed up. */
    public boolean gemmOrConv() {
        return this == GEMM || this == CONV;
    }
}
