package dlproflint.packs.pytorch;

import dlproflint.facts.KernelFact;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Where TF32 is off on one GPU, told apart by PyTorch's two switches: FP32 matmuls on CUDA cores count only when
 * no matmul ran as TF32 ({@code torch.backends.cuda.matmul.allow_tf32}), FP32 convolutions only when no convolution
 * did ({@code torch.backends.cudnn.allow_tf32}). With a switch on, cuBLAS and cuDNN still pick FP32 kernels for
 * some shapes (alignment, tiny problems); those are not the switch's fault.
 *
 * @param fp32Ns       GPU time of the FP32 GEMMs and convolutions counted
 * @param gemmConvNs   GPU time of all GEMMs and convolutions on the GPU
 * @param matmulOff    FP32 matmuls ran and no TF32 matmul did
 * @param convOff      FP32 convolutions ran and no TF32 convolution did
 * @param largest      the counted kernel with the most GPU time, or null
 */
public record Tf32Use(long fp32Ns, long gemmConvNs, boolean matmulOff, boolean convOff, KernelFact largest) {
    public static Tf32Use of(Collection<?> kernels, int deviceId) {
        long all = 0;
        for (Object o : kernels) {
            KernelFact k = (KernelFact) o;
            if (k.deviceId() == deviceId && KernelPrecision.gemmOrConv(k)) all += k.gpuTime().total();
        }
        long fp32 = 0;
        long fp32Matmul = 0;
        long fp32Conv = 0;
        KernelFact largest = null;
        for (KernelFact k : counted(kernels, deviceId)) {
            long ns = k.gpuTime().total();
            if (KernelPrecision.conv(k)) fp32Conv += ns;
            else fp32Matmul += ns;
            fp32 += ns;
            if (largest == null || ns > largest.gpuTime().total()) largest = k;
        }
        return new Tf32Use(fp32, all, fp32Matmul > 0, fp32Conv > 0, largest);
    }

    /**
     * The FP32 GEMMs and convolutions of one GPU that ran on CUDA cores because TF32 was off: matmuls when no matmul
     * ran as TF32, convolutions when no convolution did.
     */
    public static List<KernelFact> counted(Collection<?> kernels, int deviceId) {
        boolean tf32Matmul = false;
        boolean tf32Conv = false;
        for (Object o : kernels) {
            KernelFact k = (KernelFact) o;
            if (k.deviceId() != deviceId || !KernelPrecision.tf32(k)) continue;
            if (KernelPrecision.conv(k)) tf32Conv = true;
            else if (KernelPrecision.gemmOrConv(k)) tf32Matmul = true;
        }
        List<KernelFact> out = new ArrayList<>();
        for (Object o : kernels) {
            KernelFact k = (KernelFact) o;
            if (k.deviceId() != deviceId || !KernelPrecision.fp32WithoutTf32(k)) continue;
            if (KernelPrecision.conv(k) ? tf32Conv : tf32Matmul) continue;
            out.add(k);
        }
        return out;
    }

    /** Share of GEMM and convolution time in the counted FP32 kernels, 0..100. */
    public double sharePct() {
        return gemmConvNs <= 0 ? 0 : dlproflint.facts.Percent.of(fp32Ns, gemmConvNs);
    }

    /** The PyTorch settings to change, as code. */
    public String settings() {
        String matmul = "torch.backends.cuda.matmul.allow_tf32 = True (or torch.set_float32_matmul_precision(\"high\"))";
        String conv = "torch.backends.cudnn.allow_tf32 = True";
        if (matmulOff && convOff) return matmul + " and " + conv;
        return matmulOff ? matmul : conv;
    }

    /** {@code matmuls}, {@code convolutions} or {@code matmuls and convolutions}. */
    public String what() {
        if (matmulOff && convOff) return "matmuls and convolutions";
        return matmulOff ? "matmuls" : "convolutions";
    }
}
