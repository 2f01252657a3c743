package dlproflint.extract.common;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Which step launched a GPU activity, from its correlation id: GPU work belongs to the step whose CPU window its
 * launch call started in (issue 23), never to the step its GPU timestamps fall in. CUDA gives every launch call of a
 * process a correlation id in call order, and every activity the id of the call that launched it, so each step owns
 * a run of ids per process; this keeps those runs (a few numbers per step) instead of one entry per launch.
 *
 * <p>Fed with each process's launch calls in correlation id order ({@link #call}); calls of two threads racing at a
 * step boundary may get ids out of time order, which only opens a shorter run. An activity whose id no call of the
 * capture has: between two calls' ids it was launched between them (a launch the export lost), so it belongs to the
 * earlier one's step; below the first call's id it was launched before the capture began (the GPU still ran the
 * work of earlier steps when the profiler started), and belongs to no step ({@link #NONE}). Only GPU work that can
 * be linked to no launch at all - no correlation id, or a process whose launch calls the profile did not record -
 * falls back to the step its GPU start lies in ({@link #stepOf(long, long, long)} counts those).
 */
public final class LaunchSteps {
    /** No captured step launched the activity. */
    public static final int NONE = -1;

    private final Iterations its;
    private final Map<Long, Runs> byProcess = new HashMap<>();
    private long lastPid = Long.MIN_VALUE;
    private Runs last;

    public LaunchSteps(Iterations its) {
        this.its = its;
    }

    /** A process's runs: run r covers ids from {@code first[r]} up to the next run's first id, launched in {@code step[r]}. */
    private static final class Runs {
        long[] first = new long[8];
        int[] step = new int[8];
        int size;

        /** Ids arrive in ascending order: a new run starts where the step changes. */
        void add(long id, int s) {
            if (size > 0 && step[size - 1] == s) return;
            if (size > 0 && id < first[size - 1]) throw new IllegalStateException("launch calls out of correlation id order");
            if (size == first.length) {
                first = Arrays.copyOf(first, size * 2);
                step = Arrays.copyOf(step, size * 2);
            }
            first[size] = id;
            step[size++] = s;
        }

        int find(long id) {
            if (size == 0 || id < first[0]) return NONE;
            int lo = 0;
            int hi = size - 1;
            while (lo < hi) { // last run whose first id is at or below id
                int mid = (lo + hi + 1) >>> 1;
                if (first[mid] <= id) lo = mid;
                else hi = mid - 1;
            }
            return step[lo];
        }
    }

    /** One launch call of process {@code pid} with id {@code correlationId}, started at {@code startNs} (id order per process). */
    public void call(long pid, long correlationId, long startNs) {
        callInStep(pid, correlationId, its.indexOf(startNs));
    }

    /** One launch call whose step the caller already knows. */
    public void callInStep(long pid, long correlationId, int step) {
        Runs r = pid == lastPid ? last : byProcess.computeIfAbsent(pid, p -> new Runs());
        lastPid = pid;
        last = r;
        r.add(correlationId, step);
    }

    /** The step that launched the activity with this correlation id in process {@code pid}, or {@link #NONE}. */
    public int stepOf(long pid, long correlationId) {
        Runs r = pid == lastPid ? last : byProcess.get(pid);
        return r == null ? NONE : r.find(correlationId);
    }

    /**
     * The step of a GPU activity starting at {@code startNs}: the one that launched it, or, when no launch call can be
     * linked ({@code linked} false: no correlation id; or no call of its process recorded), the one its start lies in.
     */
    public int stepOf(long pid, long correlationId, boolean linked, long startNs) {
        Runs r = pid == lastPid ? last : byProcess.get(pid);
        if (linked && r != null) return r.find(correlationId);
        byTime++;
        return its.indexOf(startNs);
    }

    /** Activities given a step by their GPU start ({@link #stepOf(long, long, boolean, long)}): none could be linked. */
    public long byTime() {
        return byTime;
    }

    private long byTime;
}
