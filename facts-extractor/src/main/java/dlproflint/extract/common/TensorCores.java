package dlproflint.extract.common;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Tensor-core eligibility of ops, judged by the op type (convolutions, GEMMs, attention and RNNs, as
 * DLProf reports them). Whether a kernel ran on tensor cores is the kernel catalogue's business
 * ({@link dlproflint.extract.kernels.KernelCatalogue}).
 */
public final class TensorCores {
    private static final Set<String> ELIGIBLE = Set.copyOf(java.util.List.of(
            // PyTorch (DLProf plugin op names / aten names)
            "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
            "convolution", "_convolution", "cudnn_convolution", "cudnn_convolution_transpose",
            "linear", "matmul", "mm", "bmm", "addmm", "addbmm", "baddbmm", "addmv", "mv", "einsum",
            "lstm", "gru", "rnn", "rnn_tanh", "rnn_relu", "lstm_cell", "gru_cell", "_cudnn_rnn",
            "scaled_dot_product_attention", "multi_head_attention_forward", "_scaled_dot_product_flash_attention",
            "_scaled_dot_product_efficient_attention", "bilinear", "tensordot", "chain_matmul", "linalg_matmul",
            "_scaled_dot_product_cudnn_attention", "_flash_attention_forward", "_efficient_attention_forward",
            "_scaled_mm", "_scaled_grouped_mm", "_grouped_mm", "_int_mm", "_weight_int8pack_mm", "_fused_rms_norm_mm",
            // TensorFlow op types (lower-cased)
            "conv2dbackpropinput", "conv2dbackpropfilter", "conv3dbackpropinputv2", "conv3dbackpropfilterv2",
            "depthwiseconv2dnative", "batchmatmul", "batchmatmulv2", "batchmatmulv3", "cudnnrnn",
            "cudnnrnnv2", "cudnnrnnv3", "fusedconv2dbiasactivation", "_fusedconv2d", "_fusedmatmul",
            // TensorRT layer kinds
            "convolution_layer", "fully_connected", "fullyconnected", "gemm"));

    private static final Pattern BACKWARD_SUFFIX = Pattern.compile("(backward\\d*|_backward)$");
    private static final java.util.Map<String, Boolean> ELIGIBLE_CACHE = new java.util.concurrent.ConcurrentHashMap<>();

    private TensorCores() {
    }

    /** Op type as reported (e.g. {@code conv2d}, {@code linear}, {@code ConvolutionBackward0}). */
    public static boolean opTypeEligible(String opType) {
        if (opType == null) return false;
        if (ELIGIBLE_CACHE.size() > 100_000) ELIGIBLE_CACHE.clear(); // op types are few; never grow without bound
        return ELIGIBLE_CACHE.computeIfAbsent(opType, TensorCores::eligible);
    }

    private static boolean eligible(String opType) {
        String t = opType.toLowerCase(Locale.ROOT);
        if (t.startsWith("aten::")) t = t.substring(6);
        t = BACKWARD_SUFFIX.matcher(t).replaceFirst("");
        return ELIGIBLE.contains(t) || t.startsWith("conv") && !t.startsWith("convert") || t.contains("matmul")
                || t.contains("gemm");
    }
}
