package dlproflint.packs.dlprof;

import dlproflint.facts.ConvolutionCalls;
import dlproflint.facts.KernelFact;
import dlproflint.facts.ModelConfig;
import dlproflint.facts.OpFact;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Decides whether {@code torch.backends.cudnn.benchmark} was off, for {@code cudnn-benchmark-off.drl}.
 *
 * <p>When the profile records the setting (DLProf's PyTorch plugin writes it into its
 * {@code model_config} mark), that value decides. Otherwise the kernels tell: with benchmark on, the
 * first pass of every convolution shape runs cuDNN's algorithm search, which launches one kernel set
 * per candidate algorithm (implicit/explicit GEMM, FFT, Winograd, ...; about 18 distinct kernels per
 * conv op in the corpus profile {@code mohanadodema-dlprof/w_Relu}). With benchmark off cuDNN's
 * heuristics pick one algorithm, so a conv op launches a handful of distinct kernels at most.
 *
 * <p>Where the reader counts the kernels of each convolution <em>call</em> ({@link ConvolutionCalls}, Kineto), a call
 * that launched many is the search, and benchmark was on. None did only says something when the capture holds the
 * shapes' first calls: from the loop's first step ({@code ProfilerStep#0}). A capture that starts later, after a
 * profiler schedule's warm-up, looks the same either way, and is not judged (the reader's warning says so): an op's
 * kernels over all its calls count its shapes, not a search.
 */
public final class ConvAlgorithmSearch {
    private ConvAlgorithmSearch() {
    }

    /**
     * @param source         {@code recorded} (ModelConfig), {@code kernels} (inferred from each conv op's kernels) or
     *                       {@code first-step-calls} (inferred from each call's kernels from the first step on)
     * @param convOps        convolution ops that ran GPU work
     * @param convGpuNs      their GPU time
     * @param maxDistinctKernels most distinct kernel names launched by one conv op
     * @param first          the conv op with the most GPU time (for the subject and source location)
     */
    public record Assessment(String source, int convOps, long convGpuNs, int maxDistinctKernels, OpFact first) {
        public boolean recorded() {
            return "recorded".equals(source);
        }
    }

    /** Convolution op types of PyTorch ({@code conv2d}, {@code cudnn_convolution}, ...) and TensorFlow ({@code conv2d}, {@code conv2dbackpropfilter}). */
    public static boolean isConv(String type) {
        if (type == null) return false;
        String t = type.toLowerCase(Locale.ROOT);
        return t.contains("convolution") || (t.startsWith("conv") && !t.startsWith("convert"))
                || t.contains("_conv") || t.contains("conv_transpose");
    }

    /**
     * @return the evidence that benchmark mode was off, or an empty list when it was on, cannot be
     *         told, or no convolution ran on the GPU (a list so that DRL can iterate it with {@code from}).
     *         Where the setting is recorded off, convolution ops count even when the profile records no GPU time
     *         for them (a DLProf live capture without kernel data), as DLProf's own detector counts them:
     *         "Convolution operations were detected but torch.backends.cudnn.benchmark was not enabled"
     */
    public static List<Assessment> assess(ModelConfig cfg, Collection<?> ops, Collection<?> kernels,
                                          Collection<?> convCalls, double minSearchKernels) {
        Boolean recorded = cfg == null ? null : cfg.cudnnBenchmark();
        List<OpFact> convs = convOps(ops, true);
        if (convs.isEmpty() && Boolean.FALSE.equals(recorded)) convs = convOps(ops, false);
        if (convs.isEmpty()) return List.of();
        long gpuNs = 0;
        OpFact top = null;
        for (OpFact op : convs) {
            gpuNs += op.gpuTime().total();
            long t = op.gpuTime().total();
            // ties (no GPU time recorded) to the first op id: the session's fact order is not the profile's
            if (top == null || t > top.gpuTime().total() || t == top.gpuTime().total() && op.id().compareTo(top.id()) < 0) top = op;
        }
        Set<String> convIds = new HashSet<>();
        for (OpFact op : convs) convIds.add(op.id());
        Map<String, Set<String>> distinct = new HashMap<>();
        for (Object o : kernels) {
            if (o instanceof KernelFact k && convIds.contains(k.opId())) {
                distinct.computeIfAbsent(k.opId(), x -> new HashSet<>()).add(k.name());
            }
        }
        int maxDistinct = 0;
        for (Set<String> s : distinct.values()) maxDistinct = Math.max(maxDistinct, s.size());

        if (recorded != null) {
            return recorded ? List.of() : List.of(new Assessment("recorded", convs.size(), gpuNs, maxDistinct, top));
        }
        for (Object o : convCalls) {
            if (!(o instanceof ConvolutionCalls c)) continue;
            if (c.maxDistinctKernels() >= minSearchKernels || c.firstStepNumber() != 0) return List.of();
            return List.of(new Assessment("first-step-calls", convs.size(), gpuNs, c.maxDistinctKernels(), top));
        }
        if (distinct.isEmpty() || maxDistinct >= minSearchKernels) return List.of();
        return List.of(new Assessment("kernels", convs.size(), gpuNs, maxDistinct, top));
    }

    /** The convolution ops, in the profile's order; with {@code onGpu} only those with GPU time. */
    private static List<OpFact> convOps(Collection<?> ops, boolean onGpu) {
        List<OpFact> convs = new ArrayList<>();
        for (Object o : ops) {
            if (o instanceof OpFact op && isConv(op.type()) && (!onGpu || op.gpuTime().total() > 0)) convs.add(op);
        }
        return convs;
    }
}
