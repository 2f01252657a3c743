package dlproflint.extract.common;

import java.util.Arrays;

/**
 * The profiler's own cost on the host, estimated from the trace. Every event the profiler records (an op, a runtime
 * call, an annotation, a memory event) costs the host a few microseconds of callbacks: timestamps, input shapes
 * ({@code record_shapes}), the Python stack ({@code with_stack}), allocator events ({@code profile_memory}). The
 * cost is visible in the trace where an op does nothing but launch one kernel: without the profiler such an op
 * costs about its launch call (the dispatcher's work is tens of nanoseconds), so what its duration holds beyond the
 * launch call is the recording of the op and of its launch call, two events. Half the median of that excess is the
 * estimate per recorded event; times the events per step, what the capture added to each step on the host.
 *
 * <p>On the labelled H200 folder, where the profiled steps are 1.3-2x slower, the step replayed with this estimate
 * taken off is 35 % shorter to 7 % longer than the measured unprofiled step, 12 % off at the median
 * ({@code H200SavingsAcceptanceTest} prints the table; docs/cli.md, "The profiler's own overhead"). It errs towards
 * too short: the excess also holds some of the op's own work (dispatch, output allocation), which the unprofiled
 * loop does too. Other estimators tried on the folder (the excess less a view op's recorded duration; the slope
 * of an op's uncovered time over its number of children) fit one model family and not the other.
 */
public final class CaptureOverhead {
    /** Fewer single-launch ops than this: no estimate (the median would be one op's noise). */
    public static final int MIN_SAMPLES = 20;

    private CaptureOverhead() {
    }

    /**
     * @param thread, start, end, kind the host's recorded events, any order: kind {@link #OP} for ops, {@link #CALL}
     *                                 for runtime/driver calls, {@link #OTHER} for annotations and instant events
     * @return the estimated cost per recorded event in ns, or -1 when the trace has too few single-launch ops
     */
    public static double perEventNs(long[] thread, long[] start, long[] end, byte[] kind) {
        int n = start.length;
        int[] order = new int[n];
        for (int i = 0; i < n; i++) order[i] = i;
        // by thread, then start, then the longer first (a parent before the child that starts with it)
        sort(order, (a, b) -> {
            int c = Long.compare(thread[a], thread[b]);
            if (c == 0) c = Long.compare(start[a], start[b]);
            if (c == 0) c = Long.compare(end[b], end[a]);
            return c;
        });
        int[] children = new int[n];
        int[] onlyChild = new int[n];
        int[] stack = new int[n];
        int depth = 0;
        long th = Long.MIN_VALUE;
        for (int k = 0; k < n; k++) {
            int i = order[k];
            if (thread[i] != th) {
                depth = 0;
                th = thread[i];
            }
            while (depth > 0 && end[stack[depth - 1]] <= start[i]) depth--;
            if (depth > 0) {
                int p = stack[depth - 1];
                children[p]++;
                onlyChild[p] = i;
            }
            stack[depth++] = i;
        }
        long[] excess = new long[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (kind[i] != OP || children[i] != 1 || kind[onlyChild[i]] != CALL) continue;
            int c = onlyChild[i];
            excess[m++] = Math.max(0, (end[i] - start[i]) - (end[c] - start[c]));
        }
        if (m < MIN_SAMPLES) return -1;
        long[] s = Arrays.copyOf(excess, m);
        Arrays.sort(s);
        double median = m % 2 == 1 ? s[m / 2] : (s[m / 2 - 1] + s[m / 2]) / 2.0;
        return median / 2;
    }

    /** Compares two row indices. */
    private interface Rows {
        int compare(int a, int b);
    }

    /** Merge sort of row indices (stable, no boxing). */
    private static void sort(int[] a, Rows cmp) {
        int n = a.length;
        int[] buf = new int[n];
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n - width; lo += 2 * width) {
                int mid = lo + width;
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) buf[k++] = cmp.compare(a[i], a[j]) <= 0 ? a[i++] : a[j++];
                while (i < mid) buf[k++] = a[i++];
                while (j < hi) buf[k++] = a[j++];
                System.arraycopy(buf, lo, a, lo, hi - lo);
            }
        }
    }

    public static final byte OP = 0;
    public static final byte CALL = 1;
    public static final byte OTHER = 2;
}
