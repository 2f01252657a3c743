package dlproflint.extract.kineto;

import java.util.Locale;
import java.util.regex.Pattern;

/** Name-based classification of kernels, ops and CUDA API calls. */
final class Heuristics {
    /**
     * Tensor-core kernel name fragments: the TensorBoard plugin's allowlist (from NVIDIA PyProf) plus
     * the Ampere/Hopper/Blackwell names listed in the reference notes. Note that on Ampere an fp32
     * {@code s1688gemm}/{@code tensorop} kernel is TF32: tensor cores, not reduced precision.
     */
    private static final Pattern TC_KERNEL = Pattern.compile(
            "h884|s884|h1688|s1688|hmma|i8816|16816|dgrad_1x1_stride_2x2|first_layer_wgrad_kernel|conv1x1"
                    + "|conv2d_c1_k1|direct_group|xmma|c1688|tensorop|tensor16x8x16|sm90_|sm100_|nvjet|wgmma|_tc_|gmma");
    private static final Pattern TC_OP = Pattern.compile(
            "conv|linear|matmul|^mm$|^bmm|addmm|baddbmm|gemm|einsum|lstm|gru|^rnn|attention|^_?convolution");

    private Heuristics() {
    }

    static boolean tensorCoreKernel(String kernelName) {
        return TC_KERNEL.matcher(kernelName.toLowerCase(Locale.ROOT)).find();
    }

    static boolean tensorCoreEligibleOp(String opType) {
        return TC_OP.matcher(opType).find();
    }

    /** The API name without a {@code _vNNNN} version suffix (nsys spells them so; Kineto does not). */
    static String apiName(String name) {
        return name.replaceAll("(_v\\d+)+$", "");
    }

    static String apiCategory(String api) {
        String n = api;
        if (n.startsWith("cudaLaunch") || n.startsWith("cuLaunch") || n.startsWith("cudaGraphLaunch")
                || n.startsWith("hipLaunch") || n.startsWith("hipExtLaunch")) return "launch";
        if (n.startsWith("cudaDeviceSynchronize") || n.startsWith("cudaStreamSynchronize")
                || n.startsWith("cudaEventSynchronize") || n.startsWith("cuCtxSynchronize")
                || n.startsWith("cuStreamSynchronize") || n.startsWith("hipDeviceSynchronize")
                || n.startsWith("hipStreamSynchronize")) return "sync";
        if (n.startsWith("cudaMemcpy") || n.startsWith("cuMemcpy") || n.startsWith("hipMemcpy")) return "memcpy";
        if (n.startsWith("cudaMemset") || n.startsWith("cuMemset") || n.startsWith("hipMemset")) return "memset";
        if (n.startsWith("cudaMalloc") || n.startsWith("cudaHostAlloc") || n.startsWith("cuMemAlloc")
                || n.startsWith("hipMalloc")) return "malloc";
        if (n.startsWith("cudaFree") || n.startsWith("cuMemFree") || n.startsWith("hipFree")) return "free";
        return "other";
    }
}
