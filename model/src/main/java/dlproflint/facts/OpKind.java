package dlproflint.facts;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * What an op computes, judged by its type as the profile names it ({@code conv2d}, {@code aten::addmm},
 * {@code ConvolutionBackward0}, TensorFlow's {@code Conv2DBackpropInput}, TensorRT's {@code fully_connected}):
 * the one place that decides which ops could run on tensor cores (DLProf's "tensor-core eligible") and which
 * are convolutions or GEMMs, whose expected speed-up on tensor cores is larger. Backward ops are the kind of
 * their forward op.
 */
public enum OpKind {
    CONV, GEMM, ATTENTION, RNN,
    /** eligible for tensor cores without being a plain GEMM ({@code einsum}) */
    OTHER_TENSOR_CORE,
    OTHER;

    private static final Set<String> GEMMS = Set.of("linear", "bilinear", "mm", "bmm", "addmm", "addbmm", "baddbmm",
            "addmv", "mv", "tensordot", "_scaled_mm", "_scaled_grouped_mm", "_grouped_mm", "_int_mm", "_weight_int8pack_mm",
            "_fused_rms_norm_mm", "fully_connected", "fullyconnected", "_addmm_activation");
    private static final Set<String> RNNS = Set.of("lstm", "gru", "rnn", "rnn_tanh", "rnn_relu", "lstm_cell", "gru_cell",
            "_cudnn_rnn", "cudnnrnn", "cudnnrnnv2", "cudnnrnnv3");
    private static final Pattern BACKWARD_SUFFIX = Pattern.compile("(backward\\d*|_backward)$");
    private static final java.util.Map<String, OpKind> CACHE = new ConcurrentHashMap<>();

    /** Convolutions, GEMMs, attention, RNNs and {@code einsum}: the ops DLProf calls tensor-core eligible. */
    public boolean tensorCoreEligible() {
        return this != OTHER;
    }

    public boolean gemmOrConv() {
        return this == CONV || this == GEMM;
    }

    /** The kind of an op type ({@link #OTHER} for null). */
    public static OpKind of(String opType) {
        if (opType == null) return OTHER;
        if (CACHE.size() > 100_000) CACHE.clear(); // op types are few; never grow without bound
        return CACHE.computeIfAbsent(opType, OpKind::classify);
    }

    private static OpKind classify(String opType) {
        String t = opType.toLowerCase(Locale.ROOT);
        if (t.startsWith("aten::")) t = t.substring(6);
        t = BACKWARD_SUFFIX.matcher(t).replaceFirst("");
        if (t.contains("conv") && !t.contains("convert") && !t.contains("conversion")) return CONV;
        if (GEMMS.contains(t) || t.contains("matmul") || t.contains("gemm")) return GEMM;
        if (t.contains("attention") || t.contains("sdpa")) return ATTENTION;
        if (RNNS.contains(t)) return RNN;
        if (t.equals("einsum")) return OTHER_TENSOR_CORE;
        return OTHER;
    }
}
