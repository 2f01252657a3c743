package dlproflint.extract.kineto;

import dlproflint.extract.common.HostSyncStats;
import dlproflint.extract.common.SyncIdle;
import dlproflint.facts.HostSyncStat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The host-blocking calls of a trace ({@link dlproflint.extract.common.SyncPoints}), kept as columns, and
 * the {@link HostSyncStat} of the analysed range: nested calls count once (the outermost, e.g. the
 * {@code aten::item} around {@code aten::_local_scalar_dense} around {@code cudaStreamSynchronize}), and
 * each sync point's cost is the GPU idle time from its start until the GPU's next operation after it.
 */
final class HostSyncCalls {
    private final LongColumn start = new LongColumn();
    private final LongColumn end = new LongColumn();
    private final LongColumn thread = new LongColumn();
    private final IntColumn name = new IntColumn();
    /** the sync points (outermost calls) of the last {@link #fact}, sorted by start: what the replay prices */
    long[] keptStart = new long[0];
    long[] keptEnd = new long[0];
    /** per kept sync point: it waits for the whole device ({@code cudaDeviceSynchronize}, {@code cuCtxSynchronize}) */
    boolean[] keptDevice = new boolean[0];

    /** CUDA copy calls (start, end, thread): evidence that an op around one read a GPU value */
    private final LongColumn copyStart = new LongColumn();
    private final LongColumn copyEnd = new LongColumn();
    private final LongColumn copyThread = new LongColumn();

    /** GradScaler's ops (start, end, thread, 0 = unscale and inf check, 1 = scale update): where its inf check syncs */
    private final LongColumn scalerStart = new LongColumn();
    private final LongColumn scalerEnd = new LongColumn();
    private final LongColumn scalerThread = new LongColumn();
    private final IntColumn scalerKind = new IntColumn();

    /** Notes a CPU op of GradScaler's ({@code aten::_amp_*}); other names are ignored. */
    void scalerOp(String name, long startNs, long endNs, long threadKey) {
        int kind = switch (name) {
            case "aten::_amp_foreach_non_finite_check_and_unscale_", "aten::_amp_non_finite_check_and_unscale_" -> 0;
            case "aten::_amp_update_scale_" -> 1;
            default -> -1;
        };
        if (kind < 0) return;
        scalerStart.add(startNs);
        scalerEnd.add(endNs);
        scalerThread.add(threadKey);
        scalerKind.add(kind);
    }

    /**
     * How many of the sync points (sorted by start, with their threads) lie after one of GradScaler's unscale ops and
     * before the scale update that follows it on the same thread: {@code scaler.step()} reads the inf flag there
     * ({@code found_inf.item()}) unless the optimizer takes the check on the GPU (a fused one).
     */
    private long scalerSyncs(long[] start, long[] threads) {
        int n = scalerStart.size();
        if (n == 0) return 0;
        // each op as the moment that matters (an unscale's end, an update's start), in time order, walked beside the sync
        // points (sorted by start): per thread, the kind of the last moment at or before each sync
        ParallelSort.Order byMoment = ParallelSort.order(n, this::scalerMoment);
        long[] at = byMoment.keys();
        Map<Long, Integer> lastKind = new java.util.HashMap<>();
        int c = 0;
        long count = 0;
        for (int i = 0; i < start.length; i++) {
            for (; c < n && at[c] <= start[i]; c++) {
                int o = byMoment.row(c);
                lastKind.put(scalerThread.get(o), scalerKind.get(o));
            }
            Integer kind = lastKind.get(threads[i]);
            if (kind != null && kind == 0) count++;
        }
        return count;
    }

    private long scalerMoment(int k) {
        return scalerKind.get(k) == 0 ? scalerEnd.get(k) : scalerStart.get(k);
    }

    void copyCall(long startNs, long endNs, long threadKey) {
        copyStart.add(startNs);
        copyEnd.add(endNs);
        copyThread.add(threadKey);
    }

    void add(long startNs, long endNs, long threadKey, int nameIndex) {
        start.add(startNs);
        end.add(endNs);
        thread.add(threadKey);
        name.add(nameIndex);
    }

    int size() {
        return start.size();
    }

    /**
     * How deep a call sits in the usual nesting ({@code is_nonzero} → {@code item} → {@code _local_scalar_dense} →
     * {@code cudaStreamSynchronize}): at microsecond resolution a nested call can start and end with its parent,
     * and only the kind tells them apart from two calls in a row.
     */
    /** {@link #depth} of a synchronising CUDA call (not an ATen op). */
    private static final int API_DEPTH = 3;

    private static int depth(String name) {
        return switch (name) {
            case "aten::is_nonzero", "aten::equal", "aten::nonzero" -> 0;
            case "aten::item" -> 1;
            case "aten::_local_scalar_dense" -> 2;
            default -> 3;
        };
    }

    /**
     * @param window   the analysed range [from, to) on the host
     * @param steps    aggregated step windows (start, end) on the host; empty when the profile has no steps
     * @param gpu      the GPU operations in start order, to measure the idle time each sync point causes; null
     *                 when the trace has no GPU work
     * @param apiRecorded the trace records CUDA runtime calls: an op counts as a sync point only with a synchronising
     *                 call ({@code cudaStreamSynchronize}...) inside it; without them (a CPU-only capture of the
     *                 host) every such op counts
     * @return the fact, or null when no sync point lies in the window
     */
    HostSyncStat fact(long[] window, long[][] steps, SyncIdle.Intervals gpu, List<String> names, boolean apiRecorded) {
        int n = start.size();
        List<Integer> inWindow = new ArrayList<>();
        for (int i = 0; i < n; i++) if (start.get(i) >= window[0] && start.get(i) < window[1]) inWindow.add(i);
        // outer calls first: by start, then the longer, then the shallower kind (item before _local_scalar_dense)
        inWindow.sort((x, y) -> {
            int c = Long.compare(start.get(x), start.get(y));
            if (c == 0) c = Long.compare(end.get(y), end.get(x));
            return c != 0 ? c : Integer.compare(depth(names.get(name.get(x))), depth(names.get(name.get(y))));
        });
        // per thread: the kept call the next ones may be nested in
        Map<Long, Integer> current = new java.util.HashMap<>();
        // {start, end, name index, 1 when a synchronising CUDA call is in it, thread}
        List<long[]> kept = new ArrayList<>();
        for (int i : inWindow) {
            long th = thread.get(i);
            Integer cur = current.get(th);
            boolean api = depth(names.get(name.get(i))) == API_DEPTH;
            long[] call = {start.get(i), end.get(i), name.get(i), api ? 1 : 0, th};
            if (cur != null) {
                long[] outer = kept.get(cur);
                boolean inside = call[0] >= outer[0] && call[1] <= outer[1]
                        && (call[0] < outer[1] || depth(names.get((int) call[2])) > depth(names.get((int) outer[2])));
                boolean overlapping = call[0] < outer[1];
                if (inside || overlapping) {
                    if (call[1] > outer[1]) outer[1] = call[1]; // overlapping, not nested: one sync point
                    if (api) outer[3] = 1;
                    continue;
                }
            }
            current.put(th, kept.size());
            kept.add(call);
        }
        if (apiRecorded) {
            // an op on a CPU tensor (.item() of a random augmentation parameter in a data loader) waits for nothing: only
            // the ops with a synchronising CUDA call, or the copy of the value to the host, recorded inside are sync points
            markCopies(kept);
            kept.removeIf(k -> k[3] == 0);
        }
        int points = kept.size();
        long[] s = new long[points];
        long[] e = new long[points];
        String[] callNames = new String[points];
        for (int i = 0; i < points; i++) {
            s[i] = kept.get(i)[0];
            e[i] = kept.get(i)[1];
            callNames[i] = names.get((int) kept.get(i)[2]);
        }
        keptStart = s;
        keptEnd = e;
        keptDevice = new boolean[points];
        for (int i = 0; i < points; i++) {
            keptDevice[i] = callNames[i].startsWith("cudaDeviceSynchronize") || callNames[i].startsWith("cuCtxSynchronize");
        }
        if (points == 0) return null;
        long idle = -1;
        if (gpu != null) {
            try {
                idle = SyncIdle.measure(gpu, s, e);
            } catch (Exception ex) {
                throw new IllegalStateException(ex); // arrays do not fail
            }
        }
        HostSyncStat stat = HostSyncStats.of(s, e, callNames, steps, idle);
        long[] threads = new long[points];
        for (int i = 0; i < points; i++) threads[i] = kept.get(i)[4];
        long scaler = scalerSyncs(s, threads);
        return scaler > 0 ? stat.withScalerSyncPoints(scaler) : stat;
    }

    /** Marks the kept points (sorted by start) that hold a CUDA copy call of their own thread. */
    private void markCopies(List<long[]> kept) {
        int n = copyStart.size();
        if (n == 0) return;
        ParallelSort.Order byStart = ParallelSort.order(n, copyStart::get);
        long[] start = byStart.keys();
        for (long[] k : kept) {
            if (k[3] != 0) continue;
            for (int c = SortedLongs.below(start, k[0]); c < n && start[c] <= k[1]; c++) {
                int o = byStart.row(c);
                if (copyThread.get(o) == k[4] && copyEnd.get(o) <= k[1]) {
                    k[3] = 1;
                    break;
                }
            }
        }
    }
}
