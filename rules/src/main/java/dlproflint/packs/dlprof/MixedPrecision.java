package dlproflint.packs.dlprof;

import dlproflint.facts.KernelFact;
import dlproflint.facts.OpFact;
import dlproflint.facts.Precision;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * Whether a profile trained in mixed precision, judged from what the GPU ran: a tensor-core kernel in FP16, BF16,
 * FP8, FP4 or INT8 (the kernel catalogue's precision). TF32 and FP32-on-tensor-core (3×TF32) kernels are FP32
 * training: AMP (DLProf's "none are using FP16") is still off. A tensor-core kernel of unknown precision counts as
 * mixed precision (it cannot be told apart). Without kernel facts (a DLProf database of TensorFlow 1 mode) the ops'
 * own tensor-core flags decide, as DLProf did.
 */
public final class MixedPrecision {
    private MixedPrecision() {
    }

    /** A kernel computing in a mixed-precision format on tensor cores (or on tensor cores in a format not known). */
    public static boolean kernel(KernelFact k) {
        if (!k.usesTc()) return false;
        Precision p = k.precision();
        return p == null || p == Precision.FP16 || p == Precision.BF16 || p == Precision.FP8 || p == Precision.FP4
                || p == Precision.INT8;
    }

    /** Mixed precision ran: some kernel computed in it (without kernels: some op used tensor cores). */
    public static boolean on(Collection<?> ops, Collection<?> kernels) {
        return ops(ops, kernels) > 0;
    }

    /** How many ops ran mixed-precision tensor-core kernels (without kernel facts: how many used tensor cores). */
    public static int ops(Collection<?> ops, Collection<?> kernels) {
        boolean anyKernel = false;
        Set<String> mixed = new HashSet<>();
        for (Object o : kernels) {
            if (!(o instanceof KernelFact k)) continue;
            anyKernel = true;
            if (kernel(k)) mixed.add(k.opId());
        }
        if (anyKernel) return mixed.size();
        int n = 0;
        for (Object o : ops) {
            if (o instanceof OpFact op && op.usesTc()) n++;
        }
        return n;
    }
}
