package dlproflint.extract.common;

/**
 * The aggregation range of a reader that must accumulate before the steady window is decided ({@link StepWindow}):
 * iterations {@code first..last}, of which the first {@code deferred} are kept apart, each in its own segment, so
 * that the ones the window leaves out can be dropped afterwards without reading the profile again. Segment 0 holds
 * the rest of the range; segment {@code 1 + k} iteration {@code first + k}.
 *
 * @param first    first iteration of the range
 * @param last     last iteration of the range
 * @param deferred how many of the first iterations are kept apart (0 when the range is already final)
 */
public record Segments(int first, int last, int deferred) {
    /** A final range: one segment. */
    public static Segments of(int[] range) {
        return new Segments(range[0], range[1], 0);
    }

    /** The range, {first, last}. */
    public int[] range() {
        return new int[] {first, last};
    }

    /** The segment of an iteration, -1 outside the range. */
    public int of(int iteration) {
        if (iteration < first || iteration > last) return -1;
        int k = iteration - first;
        return k < deferred ? k + 1 : 0;
    }

    public int count() {
        return deferred + 1;
    }

    /** The segments an aggregation starting at iteration {@code from} keeps. */
    public boolean[] keptFrom(int from) {
        boolean[] kept = new boolean[count()];
        kept[0] = true;
        for (int k = 0; k < deferred; k++) kept[k + 1] = first + k >= from;
        return kept;
    }
}
