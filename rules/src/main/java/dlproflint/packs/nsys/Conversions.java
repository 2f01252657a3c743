package dlproflint.packs.nsys;

import dlproflint.facts.KernelFact;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * GPU time in precision-conversion and layout-transpose kernels, recognised by name (PyTorch's
 * {@code *_copy_kernel_cuda} casts, cuDNN/TensorRT {@code nchwToNhwc}/{@code nhwcToNchw}, TensorFlow
 * {@code Cast}/{@code Transpose} kernels, generic {@code convert}/{@code cast} kernels).
 */
public record Conversions(long conversionNs, long launches, long kernelNs, long tensorCoreNs, String topKernel) {
    private static final Pattern CONVERSION = Pattern.compile(
            // "nocast" (PyTorch's gpu_kernel_impl_nocast), "typeconvert" (vLLM's _typeConvert trait) and "broadcast"
            // (NCCL's Broadcast collective, broadcasting element-wise kernels) are not casts
            "(?<!no|broad|multi)cast|(?<!type)convert|_to_copy|copy_kernel|nchwtonhwc|nhwctonchw|transpose|permute|f2h|h2f|float2half|half2float"
                    + "|fp32_to_fp16|fp16_to_fp32|bf16_to_fp32|fp32_to_bf16");

    public static boolean isConversion(String kernelName) {
        return kernelName != null && CONVERSION.matcher(kernelName.toLowerCase(Locale.ROOT)).find();
    }

    public static Conversions of(List<?> kernels) {
        long conv = 0;
        long launches = 0;
        long all = 0;
        long tc = 0;
        String top = null;
        long topNs = -1;
        for (Object o : kernels) {
            KernelFact k = (KernelFact) o;
            long t = k.gpuTime().total();
            all += t;
            if (k.usesTc()) tc += t;
            String name = k.longName() != null ? k.longName() : k.name();
            if (!k.usesTc() && (isConversion(k.name()) || isConversion(name))) {
                conv += t;
                launches += k.gpuTime().count();
                if (t > topNs) {
                    topNs = t;
                    top = k.name();
                }
            }
        }
        return new Conversions(conv, launches, all, tc, top == null ? "none" : top);
    }

    public double sharePct() {
        return dlproflint.facts.Percent.of(conversionNs, kernelNs); // conversion kernels are among all kernels
    }
}
