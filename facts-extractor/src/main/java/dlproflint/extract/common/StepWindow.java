package dlproflint.extract.common;

import dlproflint.facts.IterationSummary;
import dlproflint.findings.Units;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How long each step took and which steps to aggregate, decided once for every format from the steps' CPU windows
 * and the GPU spans of the work they launched (issue 23).
 *
 * <p><b>Binding side.</b> A step's host side lasts from its CPU window's start to the next step's start (its CPU
 * period); its GPU side lasts from the start of the first to the end of the last GPU activity it launched (its GPU
 * span). When the host runs ahead of a busy GPU (a GPU-bound loop, kernels queued), the CPU periods are shorter than
 * the GPU spans and say nothing about how long a step takes: the GPU spans do. When the GPU waits for the host, the
 * CPU periods hold the GPU's work and its waiting. So over the aggregated steps, the side with the longer total is
 * the binding one, and every step's duration is measured on it. Either side stays put when the GPU's clock is
 * shifted against the host's (the GPU falling behind by several steps), since both are measured per step.
 *
 * <p><b>Steps that overlap on the GPU.</b> With several streams a step's work can start while the previous step's is
 * still running: the next batch's copy on a side stream, or the previous step's tail held back on its stream by a
 * collective or an event. The GPU timeline then holds the two steps at once, and their spans add up to more than the
 * time that passed. A step's GPU side is the part of its span after the earlier steps' GPU work ended (its whole
 * span when nothing overlaps), so the GPU sides of consecutive steps tile the GPU timeline like the CPU periods tile
 * the host's, and a trailing GPU (a queue ahead of a stream that waits) measures its period, not its backlog.
 *
 * <p><b>Steady window.</b> Without {@code --iter-start/--iter-stop}, steps at the start of the capture that are
 * outliers - each slower than {@value #OUTLIER_FACTOR} times the median step on its slower side (cuDNN autotuning,
 * {@code torch.compile}, first-step allocation, cold caches) - are left out of the aggregation, at most
 * {@value #MAX_LEFT_OUT} of them and never so many that fewer than half the steps (or two) remain.
 */
public final class StepWindow {
    /** A leading step is warm-up when it took more than this many times the median step. */
    public static final double OUTLIER_FACTOR = 1.5;
    /** Most steps the steady window leaves out at the start. */
    public static final int MAX_LEFT_OUT = 5;

    /**
     * The decision.
     *
     * @param binding   {@link IterationSummary#GPU_BOUND} or {@link IterationSummary#HOST_BOUND}
     * @param durations every step's duration on the binding side
     * @param first     first aggregated step (inclusive)
     * @param last      last aggregated step (inclusive)
     * @param window    {@link IterationSummary#STEADY} or {@link IterationSummary#USER_RANGE}, null for a single interval
     * @param leftOut   the steps left out at the start (the steady window only)
     * @param note      the rule and what it left out, in a sentence (empty when nothing was left out)
     */
    public record Decision(String binding, long[] durations, int first, int last, String window, List<Integer> leftOut,
                           String note) {
        public int[] range() {
            return new int[] {first, last};
        }
    }

    private StepWindow() {
    }

    /** Most leading steps the rule may leave out of {@code n}: what a reader must keep apart until it decides. */
    public static int maxLeftOut(int n) {
        return n < 3 ? 0 : Math.min(MAX_LEFT_OUT, n - Math.max(2, (n + 1) / 2));
    }

    /**
     * @param its       the steps' CPU windows
     * @param gpuStart  each step's GPU span start, -1 when it launched no GPU work
     * @param gpuEnd    each step's GPU span end
     * @param userRange the aggregation range the user asked for ({@code --iter-start/--iter-stop}, clamped), or null
     */
    public static Decision decide(Iterations its, long[] gpuStart, long[] gpuEnd, int[] userRange) {
        int n = its.count();
        long[] cpu = new long[n];
        long[] gpu = new long[n];
        long[] slow = new long[n];
        long before = Long.MIN_VALUE; // the end of the earlier steps' GPU work
        for (int i = 0; i < n; i++) {
            cpu[i] = Math.max(0, (i + 1 < n ? its.start(i + 1) : its.stop(i)) - its.start(i));
            boolean ran = gpuStart[i] >= 0 && gpuEnd[i] >= gpuStart[i];
            gpu[i] = ran ? Math.max(0, gpuEnd[i] - Math.max(gpuStart[i], before)) : 0;
            if (ran) before = Math.max(before, gpuEnd[i]);
            slow[i] = Math.max(cpu[i], gpu[i]);
        }
        int first;
        int last;
        String window;
        List<Integer> leftOut = new ArrayList<>();
        String note = "";
        if (userRange != null) {
            first = userRange[0];
            last = userRange[1];
            window = n > 1 ? IterationSummary.USER_RANGE : null;
        } else {
            first = 0;
            last = n - 1;
            window = n > 1 ? IterationSummary.STEADY : null;
            long median = median(slow);
            int max = maxLeftOut(n);
            while (first < max && slow[first] > OUTLIER_FACTOR * median) leftOut.add(first++);
            if (!leftOut.isEmpty()) note = note(leftOut, slow, median);
        }
        long cpuSum = 0;
        long gpuSum = 0;
        for (int i = first; i <= last; i++) {
            cpuSum += cpu[i];
            gpuSum += gpu[i];
        }
        boolean gpuBound = gpuSum > cpuSum;
        long[] durations = new long[n];
        for (int i = 0; i < n; i++) durations[i] = gpuBound && gpu[i] > 0 ? gpu[i] : cpu[i];
        return new Decision(gpuBound ? IterationSummary.GPU_BOUND : IterationSummary.HOST_BOUND, durations, first, last,
                window, List.copyOf(leftOut), note);
    }

    private static String note(List<Integer> leftOut, long[] slow, long median) {
        StringBuilder times = new StringBuilder();
        for (int i = 0; i < leftOut.size(); i++) {
            if (i > 0) times.append(i == leftOut.size() - 1 ? " and " : ", ");
            long t = slow[leftOut.get(i)];
            times.append(Units.duration(t)).append(" (").append(factor((double) t / median)).append("×)");
        }
        String which = leftOut.size() == 1 ? "step " + leftOut.get(0)
                : "steps " + leftOut.get(0) + "-" + leftOut.get(leftOut.size() - 1);
        return which + " left out of the aggregation as warm-up: " + times + " against a median step of "
                + Units.duration(median) + " (steady-window rule: leading steps over " + factor(OUTLIER_FACTOR)
                + "× the median: autotuning, compilation, first allocations); --iter-start " + leftOut.get(0)
                + " aggregates " + (leftOut.size() == 1 ? "it" : "them");
    }

    /** A ratio to a tenth, without trailing zeros: {@code 1.5}, {@code 30}, {@code 10.7}. */
    private static String factor(double v) {
        return new java.math.BigDecimal(v).setScale(1, java.math.RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

    static long median(long[] v) {
        if (v.length == 0) return 0;
        long[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
