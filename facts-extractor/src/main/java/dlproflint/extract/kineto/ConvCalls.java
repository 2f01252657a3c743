package dlproflint.extract.kineto;

import dlproflint.facts.ConvolutionCalls;

import java.util.Locale;

/**
 * The kernels each convolution call launched ({@link ConvolutionCalls}): a kernel's {@code External id} is the
 * call of the innermost op that launched it ({@code aten::cudnn_convolution}, {@code aten::convolution_backward}),
 * so grouping the kernels by it counts the distinct kernels per call, where the op's aggregate (every call of every
 * shape together) would count the shapes' variety instead of a search.
 */
final class ConvCalls {
    /**
     * Distinct kernels one call launches when cuDNN searches (a kernel set per candidate algorithm; 18 per conv op in
     * the corpus's {@code mohanadodema-dlprof/w_Relu}): {@code dlprof/cudnn-benchmark-off}'s default
     * {@code minSearchKernels}, used here only to say when a capture cannot tell.
     */
    static final int SEARCH_KERNELS = 8;
    /** Name indexes above this do not fit the packed key (never in practice: names are interned per trace). */
    private static final int NAME_BITS = 21;

    private ConvCalls() {
    }

    /** Does a kernel's op run a convolution? {@code aten::cudnn_convolution}, {@code aten::convolution_backward}, ... */
    static boolean convolution(String opName) {
        return opName.toLowerCase(Locale.ROOT).contains("convolution");
    }

    /**
     * @param firstStepNumber the first captured step's marker number, -1 when the steps carry none
     * @return the fact, or null without convolution calls that launched kernels
     */
    static ConvolutionCalls of(KinetoAggregator a, long firstStepNumber) {
        boolean[] conv = new boolean[a.opList.size()];
        boolean any = false;
        for (KinetoAggregator.OpAgg op : a.opList) {
            conv[op.index] = convolution(op.name);
            any |= conv[op.index];
        }
        if (!any) return null;
        KinetoAggregator.GpuColumns k = a.kernels;
        LongColumn keys = new LongColumn(); // the convolution kernels' only: a fraction of all launches
        for (int i = 0; i < k.size(); i++) {
            long ext = k.externalId.get(i);
            if (ext == TraceEvent.NONE || ext < 0 || ext >= 1L << (63 - NAME_BITS)) continue;
            int op = a.externalIdToOp.get(ext, -1);
            int name = k.nameIndex.get(i);
            if (op < 0 || !conv[op] || name < 0 || name >= 1 << NAME_BITS) continue;
            keys.add(ext << NAME_BITS | name);
        }
        int n = keys.size();
        if (n == 0) return null;
        long[] sorted = keys.sorted();
        long calls = 0;
        int max = 0;
        int distinct = 0;
        for (int i = 0; i < n; i++) {
            boolean newCall = i == 0 || sorted[i] >>> NAME_BITS != sorted[i - 1] >>> NAME_BITS;
            if (newCall) {
                calls++;
                distinct = 0;
            }
            if (newCall || sorted[i] != sorted[i - 1]) max = Math.max(max, ++distinct);
        }
        return new ConvolutionCalls(calls, max, firstStepNumber);
    }
}
