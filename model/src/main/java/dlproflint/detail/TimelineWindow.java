package dlproflint.detail;

import java.util.List;

/**
 * A bounded window of the profile's timeline: a chosen step and its neighbours, every GPU operation and the host calls
 * that launched or waited for them, per GPU stream and per CPU thread. At most a fixed number of spans are kept
 * (a report of a million launches stays small); {@link #dropped} says how many were left out.
 *
 * @param focusStep the chosen step (its index among the iterations), -1 when the profile has none
 * @param steps     the steps in the window, in time order
 * @param lanes     GPU streams first (by device and stream), then CPU threads
 * @param spans     sorted by start
 * @param dropped   spans in the window left out at the cap
 * @param why       how the window was chosen
 */
public record TimelineWindow(int focusStep, long startNs, long endNs, List<Step> steps, List<Lane> lanes, List<Span> spans,
                             int dropped, String why) implements java.io.Serializable {
    /** The most spans a window holds. */
    public static final int MAX_SPANS = 8_000;

    public TimelineWindow {
        steps = List.copyOf(steps);
        lanes = List.copyOf(lanes);
        spans = List.copyOf(spans);
    }

    /** A step in the window: its index among the profile's iterations and its extent. */
    public record Step(int index, long startNs, long endNs) implements java.io.Serializable {
    }

    /** A row: a GPU stream ({@code gpu}) or a CPU thread. */
    public record Lane(String label, boolean gpu, int device) implements java.io.Serializable {
    }

    /** What a span is. */
    public enum Kind { KERNEL, MEMCPY, MEMSET, LAUNCH, SYNC, OP }

    /**
     * One operation.
     *
     * @param category a kernel's class ({@code gemm}, {@code conv}, {@code nccl}, ...) or a copy's direction; may be null
     */
    public record Span(int lane, long startNs, long endNs, Kind kind, String name, String category)
            implements java.io.Serializable {
    }
}
