package dlproflint.packs.pytorch;

import dlproflint.facts.KernelFact;
import dlproflint.facts.KernelKind;
import dlproflint.facts.Precision;


/**
 * GEMM and convolution kernels by number format. The format is the reader's (the kernel catalogue's
 * {@link KernelFact#precision()}), and so is what the kernel computes ({@link KernelFact#kind()}): an FP32 batch norm
 * or elementwise kernel has nothing TF32 could speed up.
 */
public final class KernelPrecision {
    private KernelPrecision() {
    }

    public static boolean gemmOrConv(KernelFact k) {
        return k.kind().gemmOrConv();
    }

    /** A convolution (cuDNN), as opposed to a matrix multiplication (cuBLAS, cuBLASLt, CUTLASS GEMMs). */
    public static boolean conv(KernelFact k) {
        return k.kind() == KernelKind.CONV;
    }

    public static boolean tf32(KernelFact k) {
        return k.precision() == Precision.TF32 && k.usesTc();
    }

    /** An FP32 GEMM or convolution on CUDA cores: with TF32 allowed it would run on tensor cores. */
    public static boolean fp32WithoutTf32(KernelFact k) {
        return k.precision() == Precision.FP32 && !k.usesTc() && gemmOrConv(k);
    }

    /** A kernel computing in FP16 on tensor cores (autocast's float16 GEMMs, convolutions and attention). */
    public static boolean fp16(KernelFact k) {
        return k.precision() == Precision.FP16 && k.usesTc();
    }

    /** A kernel computing in BF16 on tensor cores. */
    public static boolean bf16(KernelFact k) {
        return k.precision() == Precision.BF16 && k.usesTc();
    }

    /**
     * A kernel of GradScaler's unscale and inf check ({@code _amp_foreach_non_finite_check_and_unscale_cuda_}, inside
     * a {@code multi_tensor_apply_kernel}'s functor) or of its scale update ({@code amp_update_scale_cuda_kernel}): the
     * evidence of loss scaling in a capture without CPU ops, where the ops that launch them are not recorded.
     */
    public static boolean lossScaling(KernelFact k) {
        return lossScaling(k.name()) || lossScaling(k.longName());
    }

    private static boolean lossScaling(String name) {
        return name != null && (name.contains("amp_update_scale") || name.contains("non_finite_check_and_unscale"));
    }
}
