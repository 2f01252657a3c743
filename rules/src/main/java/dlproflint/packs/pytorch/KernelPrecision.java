package dlproflint.packs.pytorch;

import dlproflint.facts.KernelFact;
import dlproflint.facts.Precision;

import java.util.regex.Pattern;

/**
 * GEMM and convolution kernels by number format. The format is the reader's (the kernel catalogue's
 * {@link KernelFact#precision()}); whether a kernel is a GEMM or a convolution is read here from its names, since
 * an FP32 batch norm or elementwise kernel has nothing TF32 could speed up.
 */
public final class KernelPrecision {
    /**
     * GEMMs, GEMVs and convolutions of cuBLAS, cuBLASLt, cuDNN and CUTLASS ({@code ampere_sgemm_*},
     * {@code cudnn_ampere_scudnn_*}, {@code implicit_convolve_sgemm}, {@code gemmSN_TN_kernel},
     * {@code cutlass::Kernel<cutlass_80_tensorop_s1688gemm_*>}, {@code sm80_xmma_fprop_*}, {@code nvjet_*}), searched in
     * the short and the long name (CUTLASS kernels' short name is just {@code Kernel}).
     */
    private static final Pattern GEMM_OR_CONV = Pattern.compile(
            "(?i)gemm|gemv|conv|xmma|nvjet|scudnn|hcudnn|fprop|dgrad|wgrad|winograd|fft2d");
    /** cuDNN's convolutions (its GEMM-based algorithms too: {@code implicit_convolve_sgemm}, {@code xmma_fprop_implicit_gemm}). */
    private static final Pattern CONV = Pattern.compile("(?i)conv|cudnn|fprop|dgrad|wgrad|winograd|fft2d");

    private KernelPrecision() {
    }

    public static boolean gemmOrConv(KernelFact k) {
        return GEMM_OR_CONV.matcher(names(k)).find();
    }

    /** A convolution (cuDNN), as opposed to a matrix multiplication (cuBLAS, cuBLASLt, CUTLASS GEMMs). */
    public static boolean conv(KernelFact k) {
        return CONV.matcher(names(k)).find();
    }

    /** Short and long name; FBGEMM's embedding kernels ({@code fbgemm_gpu::...}) are not GEMMs despite the library's name. */
    private static String names(KernelFact k) {
        String n = k.longName() == null ? k.name() : k.name() + " " + k.longName();
        return n.replace("fbgemm", "");
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
}
