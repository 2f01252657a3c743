package dlproflint.extract.common;

import dlproflint.facts.CollectiveCalls;
import dlproflint.facts.CollectiveKind;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.StepActivity;

import java.util.Arrays;

/**
 * Per-step GPU activity of one process in a single pass over its GPU operations in start order: the merged
 * (overlap counted once) time of compute kernels, of communication kernels, of both, and of all GPU work, so
 * that exposed communication - communication while no compute kernel runs on any stream - is
 * {@code |compute ∪ comm| - |compute|}. Memory holds one open interval per union, never the operations.
 *
 * <p>GPU work counts for the step it starts in: from the step's start to the next step's start, the last step
 * until its end plus whatever GPU work started before that end still runs for (work launched late in a step
 * runs after the CPU moved on). Work starting before the first step or after the last one is not a step's.
 *
 * <p>Host-side collectives (Gloo's {@code gloo:*} work on its CPU threads, {@link #hostCollective}) join the same
 * sweep: they are communication like NCCL kernels (exposed while no compute kernel runs), and the GPU waiting for
 * one is not idle for want of host work, so they count as busy for {@code idleNs}. Each collective kind's busy time
 * (its calls' union) is measured apart for kernels and host calls: Gloo runs several works at once.
 */
public final class StepSweep {
    /** {@link #gpu} class of a compute kernel. */
    public static final int COMPUTE = -1;
    /** {@link #gpu} class of a copy or memset. */
    public static final int MEMORY = -2;

    private static final int KINDS = CollectiveKind.values().length;
    /** collective slots: a kind's kernels at its ordinal, its host-side calls at {@code KINDS + ordinal} */
    private static final int SLOTS = 2 * KINDS;
    private static final int U_COMPUTE = 0;
    private static final int U_COMM = 1;
    private static final int U_COMPUTE_COMM = 2;
    private static final int U_ALL = 3;

    private final int[] numbers;
    private final long[] starts;
    private final long[] ends;
    private final long lastEnd;
    private final long[][] covered;
    private final long[] open = new long[8]; // per union: start, end
    private final boolean[] isOpen = new boolean[4];
    private final long[][] kindCalls;
    private final long[][] kindTime;
    private final long[][] kindBytes;
    private final long[][] kindBusy;
    /** per slot: the open merged interval of its calls, and the window it started in (-1: none open) */
    private final long[] slotStart = new long[SLOTS];
    private final long[] slotEnd = new long[SLOTS];
    private final int[] slotWindow = new int[SLOTS];
    private final IntervalUnion[] dataLoader;
    private long tailEnd;
    private long previousStart = Long.MIN_VALUE;
    private boolean unordered;

    /**
     * @param numbers step numbers ({@code ProfilerStep#N}, or iteration indices)
     * @param starts  step starts, ascending
     * @param ends    step ends
     */
    public StepSweep(int[] numbers, long[] starts, long[] ends) {
        this.numbers = numbers.clone();
        this.starts = starts.clone();
        this.ends = ends.clone();
        int n = numbers.length;
        this.lastEnd = n == 0 ? Long.MIN_VALUE : ends[n - 1];
        this.tailEnd = lastEnd;
        this.covered = new long[4][n];
        this.kindCalls = new long[n][SLOTS];
        this.kindTime = new long[n][SLOTS];
        this.kindBytes = new long[n][SLOTS];
        this.kindBusy = new long[n][SLOTS];
        for (long[] row : kindBytes) Arrays.fill(row, -1);
        Arrays.fill(slotWindow, -1);
        this.dataLoader = new IntervalUnion[n];
    }

    /**
     * One GPU operation, in start order (with the {@link #hostCollective host-side collectives}).
     *
     * @param cls   {@link #COMPUTE}, {@link #MEMORY}, or a {@link CollectiveKind}'s ordinal for a communication kernel
     * @param bytes a communication kernel's message bytes, -1 when unknown
     */
    public void gpu(long start, long end, int cls, long bytes) {
        op(start, end, cls, cls, bytes);
    }

    /**
     * One host-side collective (a Gloo work from its start on a worker thread until every peer took part), in start
     * order with the GPU operations.
     *
     * @param kind  the collective's {@link CollectiveKind} ordinal
     * @param bytes its message bytes, -1 when unknown
     */
    public void hostCollective(long start, long end, int kind, long bytes) {
        op(start, end, kind, KINDS + kind, bytes);
    }

    private void op(long start, long end, int cls, int slot, long bytes) {
        if (numbers.length == 0 || start < starts[0] || start >= lastEnd) return;
        if (start < previousStart) unordered = true;
        previousStart = start;
        if (end < start) end = start;
        tailEnd = Math.max(tailEnd, end);
        if (cls >= 0) {
            int w = window(start);
            kindCalls[w][slot]++;
            kindTime[w][slot] += end - start;
            if (bytes >= 0) kindBytes[w][slot] = Math.max(0, kindBytes[w][slot]) + bytes;
            busy(slot, w, start, end);
            add(U_COMM, start, end);
            add(U_COMPUTE_COMM, start, end);
        } else if (cls == COMPUTE) {
            add(U_COMPUTE, start, end);
            add(U_COMPUTE_COMM, start, end);
        }
        add(U_ALL, start, end);
    }

    /**
     * Extends a slot's open interval, or closes it into the busy time of the window it started in. Intervals do not
     * merge across windows: a call counts for the step it starts in, and so does its busy time.
     */
    private void busy(int slot, int w, long start, long end) {
        if (slotWindow[slot] == w && start <= slotEnd[slot]) {
            slotEnd[slot] = Math.max(slotEnd[slot], end);
            return;
        }
        closeSlot(slot);
        slotWindow[slot] = w;
        slotStart[slot] = start;
        slotEnd[slot] = end;
    }

    private void closeSlot(int slot) {
        if (slotWindow[slot] >= 0) kindBusy[slotWindow[slot]][slot] += slotEnd[slot] - slotStart[slot];
        slotWindow[slot] = -1;
    }

    /** A data-loader call (any order). */
    public void dataLoader(long start, long end) {
        for (int w = 0; w < numbers.length; w++) {
            long a = Math.max(start, starts[w]);
            long b = Math.min(end, ends[w]);
            if (b <= a) continue;
            if (dataLoader[w] == null) dataLoader[w] = new IntervalUnion();
            dataLoader[w].add(a, b);
        }
    }

    /** Whether operations arrived out of start order (the unions are then not exact; a reader bug). */
    public boolean unordered() {
        return unordered;
    }

    /** Adds one {@link StepActivity} per step and one {@link CollectiveCalls} per step, kind and place (kernels, host) that ran. */
    public void finish(ProfileFacts.Builder out) {
        for (int u = 0; u < 4; u++) {
            if (isOpen[u]) flush(u, open[2 * u], open[2 * u + 1]);
            isOpen[u] = false;
        }
        for (int slot = 0; slot < SLOTS; slot++) closeSlot(slot);
        int n = numbers.length;
        for (int w = 0; w < n; w++) {
            long window = (w + 1 < n ? starts[w + 1] : tailEnd) - starts[w];
            long compute = covered[U_COMPUTE][w];
            long comm = covered[U_COMM][w];
            long exposed = Math.max(0, covered[U_COMPUTE_COMM][w] - compute);
            long idle = Math.max(0, window - covered[U_ALL][w]);
            long dl = dataLoader[w] == null ? 0 : dataLoader[w].covered();
            out.stepActivity(new StepActivity(numbers[w], starts[w], Math.max(0, ends[w] - starts[w]), compute, comm,
                    exposed, dl, idle));
            for (int slot = 0; slot < SLOTS; slot++) {
                if (kindCalls[w][slot] > 0) {
                    out.collectiveCalls(new CollectiveCalls(numbers[w], CollectiveKind.values()[slot % KINDS], slot >= KINDS,
                            kindCalls[w][slot], kindTime[w][slot], kindBusy[w][slot], kindBytes[w][slot]));
                }
            }
        }
    }

    private void add(int u, long s, long e) {
        if (!isOpen[u]) {
            isOpen[u] = true;
            open[2 * u] = s;
            open[2 * u + 1] = e;
        } else if (s <= open[2 * u + 1]) {
            open[2 * u + 1] = Math.max(open[2 * u + 1], e);
        } else {
            flush(u, open[2 * u], open[2 * u + 1]);
            open[2 * u] = s;
            open[2 * u + 1] = e;
        }
    }

    /** Spreads a merged interval over the step windows it covers. */
    private void flush(int u, long s, long e) {
        int n = numbers.length;
        for (int w = Math.max(0, window(s)); w < n; w++) {
            long ws = starts[w];
            long we = w + 1 < n ? starts[w + 1] : Long.MAX_VALUE;
            if (ws >= e) break;
            long a = Math.max(s, ws);
            long b = Math.min(e, we);
            if (b > a) covered[u][w] += b - a;
        }
    }

    /** The step whose window holds {@code t} (the last one whose start is at or before it), or -1. */
    private int window(long t) {
        int i = Arrays.binarySearch(starts, t);
        if (i < 0) i = -i - 2;
        while (i >= 0 && i + 1 < starts.length && starts[i + 1] == t) i++;
        return i;
    }
}
