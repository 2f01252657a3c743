package dlproflint.extract.common;

import dlproflint.facts.CollectiveKind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The GPU side of every step, from the GPU activities in start order, each with the step that launched it
 * ({@link LaunchSteps}): per step and per device, the span of its own work (first start to last end), its kernel,
 * tensor-core and memory time, and the time covered by its tensor-core kernels, by all its kernels, by all its work,
 * by its compute kernels, by its communication kernels and by both (each a union: overlapping work on several streams
 * counts once). Those unions give the priority breakdown of the step's busy time (tensor-core kernels, then other
 * kernels, then copies and memsets) and the exposed communication (communication while no compute kernel ran).
 * Memory is one small cell per step and device, never one object per activity; work of neighbouring steps that runs
 * interleaved (the next step's first kernels beside this one's last) is kept apart, since each cell unions only its
 * own step's work.
 *
 * <p>Host-side collectives (Gloo's {@code gloo:*} work on its CPU threads, {@link #hostCollective}) belong to the step
 * whose CPU window holds their start, and join that step's communication like NCCL kernels: they count for its
 * communication and exposed communication, and a GPU waiting for one is waiting for communication, not idle for want
 * of host work ({@link Cell#activeNs}). They are no GPU work: they leave the step's GPU span, its busy time and its
 * priority breakdown alone. Each collective kind's busy time (its calls' union) is measured apart for kernels and
 * host calls: Gloo runs several works at once.
 */
public final class StepGpuSweep {
    /** {@link #gpu} class of a compute kernel. */
    public static final int COMPUTE = -1;
    /** {@link #gpu} class of a copy or memset. */
    public static final int MEMORY = -2;

    static final int U_TC = 0;
    static final int U_KERNEL = 1;
    static final int U_ALL = 2;
    static final int U_COMPUTE = 3;
    static final int U_COMM = 4;
    static final int U_COMPUTE_COMM = 5;
    /** GPU work and host-side collectives: the time the step was not idle for want of host work */
    static final int U_ACTIVE = 6;
    private static final int UNIONS = 7;
    private static final int KINDS = CollectiveKind.values().length;
    /** collective slots: a kind's kernels at its ordinal, its host-side calls at {@code KINDS + ordinal} */
    private static final int SLOTS = 2 * KINDS;

    private final int steps;
    /** device ids in order of first appearance, and each one's slot (slot 0 of each step is all devices together) */
    private final List<Integer> devices = new ArrayList<>();
    private final java.util.Map<Integer, Integer> slots = new java.util.HashMap<>();
    private int lastDevice = Integer.MIN_VALUE;
    private int lastSlot;
    private Cell[][] cells;
    private long unattributed;
    private long unattributedNs;
    private long previousStart = Long.MIN_VALUE;
    private boolean unordered;
    /**
     * While every activity so far ran on one device (the common case), only the all-devices cell of each step is kept:
     * that device's own cell would be the same, less the collectives' calls, which only the all-devices cell counts. It
     * is made from the all-devices cell when a second device appears, a host-side collective arrives (it joins the
     * all-devices cell only) or the sweep ends ({@link #split}). Half the interval work per activity.
     */
    private boolean oneDevice = true;
    private int onlyDevice;
    private boolean anyDevice;

    public StepGpuSweep(int steps) {
        this.steps = steps;
        this.cells = new Cell[steps][1];
    }

    /** One step's work on one device (or on all of them). */
    public static final class Cell {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long kernels;
        long kernelNs;
        long tcNs;
        long memoryOps;
        long memoryNs;
        private final long[] open = new long[UNIONS * 2];
        private final boolean[] isOpen = new boolean[UNIONS];
        private final long[] covered = new long[UNIONS];
        long[] kindCalls;
        long[] kindTime;
        long[] kindBytes;
        long[] kindBusy;
        /** per slot, the open merged interval of its calls ({@code kindOpen[2 * slot]}, {@code kindOpen[2 * slot + 1]}) */
        private long[] kindOpen;

        /** Takes {@code all}'s GPU work as it stands (not its collectives' calls, which only the all-devices cell counts). */
        void copyGpuWork(Cell all) {
            first = all.first;
            last = all.last;
            kernels = all.kernels;
            kernelNs = all.kernelNs;
            tcNs = all.tcNs;
            memoryOps = all.memoryOps;
            memoryNs = all.memoryNs;
            System.arraycopy(all.open, 0, open, 0, open.length);
            System.arraycopy(all.isOpen, 0, isOpen, 0, isOpen.length);
            System.arraycopy(all.covered, 0, covered, 0, covered.length);
        }

        void add(int u, long s, long e) {
            covered[u] += extend(open, u, !isOpen[u], s, e);
            isOpen[u] = true;
        }

        /**
         * Adds {@code [s, e)} (in start order) to the merged interval open at {@code open[2 * i]}, {@code open[2 * i + 1]},
         * or opens one there ({@code fresh}: none open yet); returns the length of the interval it closed (0: none).
         */
        private static long extend(long[] open, int i, boolean fresh, long s, long e) {
            if (!fresh && s <= open[2 * i + 1]) {
                open[2 * i + 1] = Math.max(open[2 * i + 1], e);
                return 0;
            }
            long closed = fresh ? 0 : open[2 * i + 1] - open[2 * i];
            open[2 * i] = s;
            open[2 * i + 1] = e;
            return closed;
        }

        void close() {
            for (int u = 0; u < UNIONS; u++) {
                if (isOpen[u]) covered[u] += open[2 * u + 1] - open[2 * u];
                isOpen[u] = false;
            }
            if (kindCalls == null) return;
            for (int slot = 0; slot < SLOTS; slot++) { // the open interval is added once (closing twice adds 0)
                if (kindCalls[slot] > 0) kindBusy[slot] += kindOpen[2 * slot + 1] - kindOpen[2 * slot];
                kindOpen[2 * slot] = kindOpen[2 * slot + 1];
            }
        }

        /** One collective call of a slot, in start order: its calls, time, bytes, and the union of their intervals. */
        void collective(int slot, long start, long end, long bytes) {
            if (kindCalls == null) {
                kindCalls = new long[SLOTS];
                kindTime = new long[SLOTS];
                kindBytes = new long[SLOTS];
                kindBusy = new long[SLOTS];
                kindOpen = new long[2 * SLOTS];
                Arrays.fill(kindBytes, -1);
            }
            kindBusy[slot] += extend(kindOpen, slot, kindCalls[slot] == 0, start, end);
            kindCalls[slot]++;
            kindTime[slot] += end - start;
            if (bytes >= 0) kindBytes[slot] = Math.max(0, kindBytes[slot]) + bytes;
        }

        /** Whether the step launched any GPU work here. */
        public boolean ran() {
            return last >= first;
        }

        public long first() {
            return first;
        }

        public long last() {
            return last;
        }

        public long spanNs() {
            return ran() ? last - first : 0;
        }

        public long kernels() {
            return kernels;
        }

        public long kernelNs() {
            return kernelNs;
        }

        public long tcNs() {
            return tcNs;
        }

        public long memoryOps() {
            return memoryOps;
        }

        public long memoryNs() {
            return memoryNs;
        }

        /** Time any of the step's work ran. */
        public long busyNs() {
            return covered[U_ALL];
        }

        /** Time its tensor-core kernels ran; then kernels (tensor-core ones included); then all its work. */
        public long tcBusyNs() {
            return covered[U_TC];
        }

        public long kernelBusyNs() {
            return covered[U_KERNEL];
        }

        public long computeNs() {
            return covered[U_COMPUTE];
        }

        public long commNs() {
            return covered[U_COMM];
        }

        /** Communication (kernels and host-side collectives) while no compute kernel of the step ran on any stream. */
        public long exposedCommNs() {
            return Math.max(0, covered[U_COMPUTE_COMM] - covered[U_COMPUTE]);
        }

        /** Time any of the step's GPU work ran or one of its host-side collectives was in flight. */
        public long activeNs() {
            return covered[U_ACTIVE];
        }

        /** The kind's communication kernels ({@code host} false) or host-side calls ({@code host} true). */
        public long kindCalls(CollectiveKind k, boolean host) {
            return kindCalls == null ? 0 : kindCalls[slot(k, host)];
        }

        /** Their summed durations. */
        public long kindTime(CollectiveKind k, boolean host) {
            return kindTime == null ? 0 : kindTime[slot(k, host)];
        }

        /** Time at least one of them was in flight (overlapping calls once). */
        public long kindBusy(CollectiveKind k, boolean host) {
            return kindBusy == null ? 0 : kindBusy[slot(k, host)];
        }

        /** Their message bytes, -1 when none said. */
        public long kindBytes(CollectiveKind k, boolean host) {
            return kindBytes == null ? -1 : kindBytes[slot(k, host)];
        }

        private static int slot(CollectiveKind k, boolean host) {
            return host ? KINDS + k.ordinal() : k.ordinal();
        }
    }

    /**
     * One GPU activity, in start order over every device.
     *
     * @param step  the step that launched it ({@link LaunchSteps}), {@link LaunchSteps#NONE} when none in the capture
     * @param cls   {@link #COMPUTE}, {@link #MEMORY}, or a {@link CollectiveKind}'s ordinal for a communication kernel
     * @param tc    a tensor-core kernel
     * @param bytes a communication kernel's message bytes, -1 when unknown
     */
    public void gpu(int step, int device, long start, long end, int cls, boolean tc, long bytes) {
        if (end < start) end = start;
        if (start < previousStart) unordered = true;
        previousStart = start;
        if (step < 0 || step >= steps) {
            unattributed++;
            unattributedNs += end - start;
            return;
        }
        if (oneDevice) {
            if (!anyDevice) {
                anyDevice = true;
                onlyDevice = device;
            } else if (device != onlyDevice) {
                split();
            }
        }
        int slot = slot(device);
        add(cell(step, 0), start, end, cls, tc, bytes, true);
        if (!oneDevice) add(cell(step, slot), start, end, cls, tc, bytes, false);
    }

    /** Gives the only device so far its own cells, copies of the all-devices ones; from now on each activity adds to both. */
    private void split() {
        if (!oneDevice) return;
        oneDevice = false;
        if (!anyDevice) return;
        int slot = slot(onlyDevice);
        for (int step = 0; step < steps; step++) {
            Cell all = cells[step][0];
            if (all != null) cell(step, slot).copyGpuWork(all);
        }
    }

    private static void add(Cell c, long start, long end, int cls, boolean tc, long bytes, boolean all) {
        c.first = Math.min(c.first, start);
        c.last = Math.max(c.last, end);
        long d = end - start;
        if (cls == MEMORY) {
            c.memoryOps++;
            c.memoryNs += d;
        } else {
            c.kernels++;
            c.kernelNs += d;
            if (tc) {
                c.tcNs += d;
                c.add(U_TC, start, end);
            }
            c.add(U_KERNEL, start, end);
            if (cls >= 0) {
                c.add(U_COMM, start, end);
                c.add(U_COMPUTE_COMM, start, end);
                if (all) c.collective(cls, start, end, bytes);
            } else {
                c.add(U_COMPUTE, start, end);
                c.add(U_COMPUTE_COMM, start, end);
            }
        }
        c.add(U_ALL, start, end);
        c.add(U_ACTIVE, start, end);
    }

    /**
     * One host-side collective (a Gloo work from its start on a worker thread until every peer took part), in start
     * order with the GPU activities.
     *
     * @param step  the step whose CPU window holds its start ({@link Iterations#holding}), {@link LaunchSteps#NONE}
     *              when none: it is then left out (no step's, and no GPU activity to warn about)
     * @param kind  the collective's {@link CollectiveKind} ordinal
     * @param bytes its message bytes, -1 when unknown
     */
    public void hostCollective(int step, long start, long end, int kind, long bytes) {
        if (end < start) end = start;
        if (start < previousStart) unordered = true;
        previousStart = start;
        if (step < 0 || step >= steps) return;
        split();
        Cell c = cell(step, 0);
        c.add(U_COMM, start, end);
        c.add(U_COMPUTE_COMM, start, end);
        c.add(U_ACTIVE, start, end);
        c.collective(KINDS + kind, start, end, bytes);
    }

    private int slot(int device) {
        if (device == lastDevice) return lastSlot;
        Integer i = slots.get(device);
        if (i == null) {
            devices.add(device);
            slots.put(device, i = devices.size());
        }
        lastDevice = device;
        lastSlot = i;
        return i;
    }

    private Cell cell(int step, int slot) {
        Cell[] row = cells[step];
        if (slot >= row.length) row = cells[step] = Arrays.copyOf(row, Math.max(slot + 1, devices.size() + 1));
        Cell c = row[slot];
        if (c == null) row[slot] = c = new Cell();
        return c;
    }

    /** Closes the unions; call once, after the last activity. */
    public StepGpuSweep finish() {
        split();
        for (Cell[] row : cells) for (Cell c : row) if (c != null) c.close();
        return this;
    }

    public int steps() {
        return steps;
    }

    /** The devices that ran work of some step, in order of first appearance. */
    public List<Integer> devices() {
        return List.copyOf(devices);
    }

    /** Step {@code step}'s work on all devices together (empty when it launched none). */
    public Cell all(int step) {
        Cell c = cells[step][0];
        return c == null ? EMPTY : c;
    }

    /** Step {@code step}'s work on one device (empty when it ran none there). */
    public Cell on(int step, int device) {
        Integer i = slots.get(device);
        Cell[] row = cells[step];
        Cell c = i == null || i >= row.length ? null : row[i];
        return c == null ? EMPTY : c;
    }

    private static final Cell EMPTY = new Cell();

    /** A step's work where it launched none. */
    public static Cell none() {
        return EMPTY;
    }

    /** Activities no captured step launched (launched before the capture began), and their GPU time. */
    public long unattributed() {
        return unattributed;
    }

    public long unattributedNs() {
        return unattributedNs;
    }

    /** Activities arrived out of start order (the unions are then not exact: a reader bug). */
    public boolean unordered() {
        return unordered;
    }
}
