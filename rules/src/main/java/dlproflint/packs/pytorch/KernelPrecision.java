package dlproflint.packs.pytorch;

import dlproflint.facts.KernelFact;

import java.util.regex.Pattern;

/**
 * What a GEMM or convolution kernel's name says about its number format: the tokens cuBLAS, cuDNN, CUTLASS and
 * cuBLASLt put in their kernel names ({@code ampere_sgemm_*}, {@code cudnn_ampere_scudnn_*} for FP32 on CUDA cores,
 * {@code s1688}/{@code tf32} for TF32 tensor cores, {@code h884}/{@code f16} for FP16, {@code bf16} for BF16).
 */
public final class KernelPrecision {
    /** GEMMs, GEMVs and convolutions, whatever their precision (not the layout transposes and batch norms around them). */
    private static final Pattern GEMM_OR_CONV = Pattern.compile(
            "(?i).*(gemm|gemv|conv|xmma|cutlass|nvjet|scudnn|hcudnn|s1688|s884|h884|h1688|16816|161616|wgrad|dgrad|fprop|winograd).*");
    /** FP32 on CUDA cores: cuBLAS {@code sgemm}/{@code sgemv}, cuDNN {@code scudnn}, xmma {@code f32f32_f32f32_f32}. */
    private static final Pattern FP32 = Pattern.compile("(?i).*(sgemm|sgemv|scudnn|f32f32_f32f32_f32).*");
    /** TF32 tensor-core kernels (FP32 data, TF32 multiply): {@code s1688}, {@code tf32} (not the FP16/BF16 ones). */
    private static final Pattern TF32 = Pattern.compile("(?i).*(tf32|s1688gemm|s1688cudnn|s1688fprop|s1688dgrad|s1688wgrad).*");
    /** A cuBLAS/cuDNN template kernel instantiated for {@code float} ({@code gemmSN_TN_kernel<float, ...>}). */
    private static final Pattern FLOAT_TEMPLATE = Pattern.compile("^(void )?[\\w:]*(gemm|gemv|conv)\\w*<float,.*");
    private static final Pattern BF16 = Pattern.compile("(?i).*(bf16|bfloat16).*");
    /** FP16 tokens; {@code bf16} contains {@code f16}, so an {@code f16} preceded by {@code b} does not count. */
    private static final Pattern FP16 = Pattern.compile(".*((?<![bB])f16|fp16|FP16|h884|h1688|h16816|hmma|[hH]alf).*");

    private KernelPrecision() {
    }

    public static boolean gemmOrConv(KernelFact k) {
        return GEMM_OR_CONV.matcher(k.name()).matches() || FLOAT_TEMPLATE.matcher(nonNull(k.longName())).matches();
    }

    /** An FP32 GEMM or convolution on CUDA cores: TF32 would run it on tensor cores. */
    public static boolean fp32WithoutTf32(KernelFact k) {
        if (TF32.matcher(k.name()).matches() || TF32.matcher(nonNull(k.longName())).matches()) return false;
        return FP32.matcher(k.name()).matches() || FLOAT_TEMPLATE.matcher(nonNull(k.longName())).matches();
    }

    public static boolean tf32(KernelFact k) {
        return TF32.matcher(k.name()).matches();
    }

    /** A tensor-core kernel computing in FP16. */
    public static boolean fp16(KernelFact k) {
        String n = k.name() + " " + nonNull(k.longName());
        return FP16.matcher(n).matches() && !BF16.matcher(k.name()).matches();
    }

    public static boolean bf16(KernelFact k) {
        return BF16.matcher(k.name()).matches();
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}
