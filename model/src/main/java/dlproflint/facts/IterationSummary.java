package dlproflint.facts;

import java.util.List;

/**
 * How the profile was split into iterations, and how well.
 *
 * @param keyNode       the key node or step family the split used ({@code ProfilerStep#N},
 *                      {@code enumerate(DataLoader)#...__next__}, a user's key node), or null when none
 * @param keyNodeFound  the profile was split: instances of {@code keyNode} were found
 * @param keyNodeSource {@code user} (--key-node), {@code default} (chosen by the reader), {@code dlprof}
 *                      (DLProf's own split, from a DLProf database) or {@code none}
 * @param total         number of iterations found (1 when the whole profile is one interval)
 * @param aggStart      first aggregated iteration (inclusive)
 * @param aggStop       last aggregated iteration (inclusive)
 * @param avgDurationNs mean duration of aggregated iterations
 * @param stdDevNs      population standard deviation of aggregated iteration durations
 * @param method        how the iterations were found, one of {@link #METHODS}
 * @param candidates    when nothing split the profile: step families that would, best first (may be empty)
 * @param binding       the side whose timeline the steps' durations were measured on: {@link #GPU_BOUND} (the GPU ran
 *                      behind the host, so each step lasts its GPU span), {@link #HOST_BOUND} (the host set the pace:
 *                      each step lasts from its CPU window's start to the next one's), or null when not measured
 * @param window        how the aggregation range was chosen: {@link #STEADY} (the default: leading outlier steps left
 *                      out), {@link #USER_RANGE} ({@code --iter-start/--iter-stop}), {@link #DLPROF_RANGE} (a DLProf
 *                      database's own), or null when not decided (a single interval)
 * @param leftOut       the steps the steady window left out at the start of the capture (warm-up), by index
 * @param windowNote    the rule that chose the window and what it left out, in a sentence (empty when nothing was)
 */
public record IterationSummary(String keyNode, boolean keyNodeFound, String keyNodeSource, int total,
                               int aggStart, int aggStop, double avgDurationNs, double stdDevNs, String method,
                               List<IterationCandidate> candidates, String binding, String window,
                               List<Integer> leftOut, String windowNote) {
    public static final String USER_KEY_NODE = "user-key-node";
    public static final String FRAMEWORK_KEY_NODE = "framework-key-node";
    public static final String STEP_MARKERS = "step-markers";
    public static final String NUMBERED_RANGES = "numbered-ranges";
    public static final String NAMED_RANGES = "named-ranges";
    public static final String INFERRED_DATALOADER = "inferred:dataloader-next";
    public static final String INFERRED_OPTIMIZER = "inferred:optimizer-step";
    public static final String INFERRED_REPEATING_OP = "inferred:repeating-op";
    public static final String DLPROF = "dlprof";
    public static final String NONE = "none";
    /** Every method, in the order the readers try them (DLProf's own split only comes from its database). */
    public static final List<String> METHODS = List.of(USER_KEY_NODE, FRAMEWORK_KEY_NODE, STEP_MARKERS,
            NUMBERED_RANGES, NAMED_RANGES, INFERRED_DATALOADER, INFERRED_OPTIMIZER, INFERRED_REPEATING_OP, DLPROF, NONE);

    public static final String GPU_BOUND = "gpu";
    public static final String HOST_BOUND = "host";
    public static final String STEADY = "steady";
    public static final String USER_RANGE = "user";
    public static final String DLPROF_RANGE = "dlprof";

    public IterationSummary {
        method = method == null || method.isBlank() ? NONE : method;
        candidates = candidates == null ? List.of() : List.copyOf(candidates);
        leftOut = leftOut == null ? List.of() : List.copyOf(leftOut);
        windowNote = windowNote == null ? "" : windowNote;
    }

    /** A summary without a binding side or window decision (a single interval, a hand-made fact). */
    public IterationSummary(String keyNode, boolean keyNodeFound, String keyNodeSource, int total, int aggStart,
                            int aggStop, double avgDurationNs, double stdDevNs, String method,
                            List<IterationCandidate> candidates) {
        this(keyNode, keyNodeFound, keyNodeSource, total, aggStart, aggStop, avgDurationNs, stdDevNs, method, candidates,
                null, null, List.of(), "");
    }

    /** The same split with the steady window's decision: binding side, window, left-out steps, aggregated range. */
    public IterationSummary withWindow(String binding, String window, List<Integer> leftOut, String note, int aggStart,
                                       int aggStop, double avgDurationNs, double stdDevNs) {
        return new IterationSummary(keyNode, keyNodeFound, keyNodeSource, total, aggStart, aggStop, avgDurationNs,
                stdDevNs, method, candidates, binding, window, leftOut, note);
    }

    /** Steps were left out of the aggregation at the start of the capture. */
    public boolean leftOutSteps() {
        return !leftOut.isEmpty();
    }

    /** {@code GPU-bound (steps measured on the GPU)}, for report headers; empty when not measured. */
    public String bindingText() {
        if (GPU_BOUND.equals(binding)) return "GPU-bound: step times from the GPU spans";
        if (HOST_BOUND.equals(binding)) return "host-bound: step times from the CPU ranges";
        return "";
    }

    /** No split: the whole profile is one interval. */
    public static IterationSummary none(int total, double avgDurationNs, List<IterationCandidate> candidates) {
        return new IterationSummary(null, false, "none", total, 0, total - 1, avgDurationNs, 0, NONE, candidates);
    }

    public int aggregated() {
        return total == 0 ? 0 : aggStop - aggStart + 1;
    }

    /**
     * Coefficient of variation of aggregated iteration durations (standard deviation / mean), in percent.
     * Not a share: a ratio that passes 100 when the spread exceeds the mean; reports print it as a multiple then.
     */
    public double variationPct() {
        return avgDurationNs <= 0 ? 0 : 100.0 * stdDevNs / avgDurationNs;
    }

    /** Iterations guessed from repetition (DataLoader calls, optimizer steps, a repeating op), not marked. */
    public boolean inferred() {
        return method.startsWith("inferred:");
    }

    /** How the iterations were found, for a sentence: {@code step markers ProfilerStep#N}. */
    public String howFound() {
        String k = keyNode == null || keyNode.isBlank() ? "?" : keyNode;
        return switch (method) {
            case USER_KEY_NODE -> "key node " + k + " (--key-node)";
            case FRAMEWORK_KEY_NODE -> "the framework's key node " + k;
            case STEP_MARKERS -> "step markers " + k;
            case NUMBERED_RANGES -> "numbered ranges " + k;
            case NAMED_RANGES -> "repeated ranges " + k;
            case INFERRED_DATALOADER -> "inferred from DataLoader calls " + k;
            case INFERRED_OPTIMIZER -> "inferred from optimizer steps " + k;
            case INFERRED_REPEATING_OP -> "inferred from the repeating op " + k;
            case DLPROF -> "DLProf's own split" + (keyNode == null || keyNode.isBlank() ? "" : " (key node " + k + ")");
            default -> "not split";
        };
    }
}
