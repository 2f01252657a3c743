package dlproflint.extract.common;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Tensor-core heuristics: kernel use is judged by the kernel name (cuDNN/cuBLAS/CUTLASS/TensorRT naming
 * conventions), op eligibility by the op type (convolutions, GEMMs and RNNs, as DLProf reports them).
 */
public final class TensorCores {
    /**
     * Name fragments of tensor-core kernels: the MMA shape tags of Volta–Hopper cuDNN/cuBLAS kernels
     * ({@code h884}, {@code s1688}, {@code i8816}, {@code 16816}...), HMMA/IMMA/XMMA/WGMMA families,
     * CUTLASS {@code tensorop}, TensorRT {@code tensor16x8x16}, WMMA.
     */
    private static final Pattern TC_KERNEL = Pattern.compile(
            "(h884|h1688|s884|s1688|i8816|i16832|h16816|s16816|bf16816|tf32|884gemm|1688gemm|16816gemm|16832"
                    + "|hmma|imma|xmma|wgmma|gmma|tensorop|tensor\\d+x\\d+x\\d+|wmma|_tc_|tc_kernel|cutlass_tensorop"
                    + "|sm80_xmma|sm90_xmma|sm86_xmma|sm75_xmma|sm70_xmma)",
            Pattern.CASE_INSENSITIVE);

    private static final Set<String> ELIGIBLE = Set.copyOf(java.util.List.of(
            // PyTorch (DLProf plugin op names / aten names)
            "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
            "convolution", "_convolution", "cudnn_convolution", "cudnn_convolution_transpose",
            "linear", "matmul", "mm", "bmm", "addmm", "addbmm", "baddbmm", "addmv", "mv", "einsum",
            "lstm", "gru", "rnn", "rnn_tanh", "rnn_relu", "lstm_cell", "gru_cell", "_cudnn_rnn",
            "scaled_dot_product_attention", "multi_head_attention_forward", "_scaled_dot_product_flash_attention",
            "_scaled_dot_product_efficient_attention", "bilinear", "tensordot", "chain_matmul", "linalg_matmul",
            // TensorFlow op types (lower-cased)
            "conv2dbackpropinput", "conv2dbackpropfilter", "conv3dbackpropinputv2", "conv3dbackpropfilterv2",
            "depthwiseconv2dnative", "batchmatmul", "batchmatmulv2", "batchmatmulv3", "cudnnrnn",
            "cudnnrnnv2", "cudnnrnnv3", "fusedconv2dbiasactivation", "_fusedconv2d", "_fusedmatmul",
            // TensorRT layer kinds
            "convolution_layer", "fully_connected", "fullyconnected", "gemm"));

    private TensorCores() {
    }

    /** Longest name prefix searched: real demangled names stay far below it; a hostile 10 MB name costs seconds. */
    private static final int MAX_NAME_CHARS = 1 << 16;

    public static boolean kernelUsesTensorCores(String kernelName) {
        if (kernelName == null) return false;
        CharSequence name = kernelName.length() > MAX_NAME_CHARS ? kernelName.subSequence(0, MAX_NAME_CHARS) : kernelName;
        return TC_KERNEL.matcher(name).find();
    }

    /** Op type as reported (e.g. {@code conv2d}, {@code linear}, {@code ConvolutionBackward0}). */
    public static boolean opTypeEligible(String opType) {
        if (opType == null) return false;
        String t = opType.toLowerCase(Locale.ROOT);
        if (t.startsWith("aten::")) t = t.substring(6);
        t = t.replaceAll("backward\\d*$", "").replaceAll("_backward$", "");
        return ELIGIBLE.contains(t) || t.startsWith("conv") && !t.startsWith("convert") || t.contains("matmul")
                || t.contains("gemm");
    }
}
