package dlproflint.extract.kineto;

import dlproflint.extract.common.HostReplay;



/**
 * The Kineto adapter's side of {@link HostReplay}: the launches of the analysed range with their GPU durations, the
 * sync points {@link HostSyncCalls} kept, the copies that read or write pageable host memory, and the DataLoader's
 * calls.
 */
final class KinetoReplay {
    /**
     * Host-to-device rate of a copy from pinned memory when the trace has none to measure it on: PCIe Gen4 x16's
     * practical ~25 GB/s (Gen5 GPUs such as H100/H200 reach ~50; the conservative end).
     */
    static final double DEFAULT_PINNED_BYTES_PER_NS = 25.0;
    /** Copies below this size say nothing about the link's rate (their time is the call's latency). */
    private static final long RATE_MIN_BYTES = 1 << 20;

    private KinetoReplay() {
    }

    /**
     * Share of the GPU time one stream per device must hold for a replay: the replay keeps each stream's order but
     * not the events that make one stream wait for another ({@code cudaStreamWaitEvent}: a compute stream waiting
     * for NCCL's), so profiles whose streams run concurrently are not replayed.
     */
    static final double MIN_MAIN_STREAM_SHARE = 0.95;

    /** Why the last {@link #of} returned null, in words for the report. */
    static String notReplayed(KinetoAggregator a, GpuStreams s) {
        int busiest = 0;
        for (int g = 0; g < s.groups(); g++) if (s.groupStart[g + 1] - s.groupStart[g] > 0) busiest++;
        return busiest > 1 && !oneMainStream(s) ? busiest + " GPU streams ran concurrently (the dependencies between them"
                + " are not replayed)" : "no GPU work was linked to its launch call";
    }

    /** Each device's GPU time lies on one stream (at least {@link #MIN_MAIN_STREAM_SHARE} of it). */
    static boolean oneMainStream(GpuStreams s) {
        java.util.Map<Integer, long[]> perDevice = new java.util.HashMap<>(); // {total, largest stream}
        for (int g = 0; g < s.groups(); g++) {
            long t = 0;
            for (int i = s.groupStart[g]; i < s.groupStart[g + 1]; i++) t += s.duration(i);
            long[] d = perDevice.computeIfAbsent(s.groupDevice[g], k -> new long[2]);
            d[0] += t;
            d[1] = Math.max(d[1], t);
        }
        for (long[] d : perDevice.values()) if (d[0] > 0 && d[1] < MIN_MAIN_STREAM_SHARE * d[0]) return false;
        return true;
    }

    /** @return the replay, or null when nothing in the range was launched by a recorded call or streams overlap */
    static HostReplay.Result of(KinetoAggregator a, GpuStreams s, long from, long to, int steps, double perEventNs) {
        if (!oneMainStream(s)) return null;
        int n = s.size();
        long[] call = new long[n];
        long[] dur = new long[n];
        int[] stream = new int[n];
        int m = 0;
        int copies = 0;
        double pinnedRate = 0;
        for (int g = 0; g < s.groups(); g++) {
            for (int i = s.groupStart[g]; i < s.groupStart[g + 1]; i++) {
                if (!s.linked(i)) continue;
                call[m] = s.callStart(i);
                dur[m] = s.duration(i);
                stream[m++] = g;
                if (s.table(i) != GpuStreams.MEMCPY) continue;
                String[] kinds = KinetoNames.memcpyKinds(a.names.get(s.nameIndex(i)));
                if (pageable(kinds)) copies++;
                else if ("Pinned".equals(kinds[1]) && s.bytes(i) >= RATE_MIN_BYTES && s.duration(i) > 0) {
                    pinnedRate = Math.max(pinnedRate, s.bytes(i) / (double) s.duration(i));
                }
            }
        }
        if (m == 0) return null;
        if (pinnedRate <= 0) pinnedRate = DEFAULT_PINNED_BYTES_PER_NS;
        long[] cs = new long[copies];
        long[] ce = new long[copies];
        int[] cst = new int[copies];
        long[] cgpu = new long[copies];
        long[] cpin = new long[copies];
        int c = 0;
        for (int g = 0; g < s.groups(); g++) {
            for (int i = s.groupStart[g]; i < s.groupStart[g + 1]; i++) {
                if (!s.linked(i) || s.table(i) != GpuStreams.MEMCPY) continue;
                if (!pageable(KinetoNames.memcpyKinds(a.names.get(s.nameIndex(i))))) continue;
                cs[c] = s.callStart(i);
                ce[c] = s.callEnd(i);
                cst[c] = g;
                cgpu[c] = s.duration(i);
                cpin[c++] = (long) Math.min(s.duration(i), s.bytes(i) / pinnedRate);
            }
        }
        sortBy(call, dur, stream, m);
        sortCopies(cs, ce, cst, cgpu, cpin);
        long[] release = releases(a, cs, ce);
        HostReplay.Launches launches = new HostReplay.Launches(java.util.Arrays.copyOf(call, m),
                java.util.Arrays.copyOf(dur, m), java.util.Arrays.copyOf(stream, m));
        HostReplay.Blocking blocking = new HostReplay.Blocking(a.hostSyncs.keptStart, a.hostSyncs.keptEnd, a.hostSyncs.keptDevice, cs, ce, cst,
                cgpu, cpin, release);
        HostReplay.Loading ld = loading(a);
        return HostReplay.replay(from, to, steps, a.hostEvents.sortedStarts(), Math.max(0, perEventNs), launches, blocking,
                ld);
    }

    /** The DataLoader's {@code __next__} calls, merged where they overlap, in start order. */
    static HostReplay.Loading loading(KinetoAggregator a) {
        int n = a.dataLoaderStart.size();
        ParallelSort.Order byStart = ParallelSort.order(n, a.dataLoaderStart::get);
        long[] start = byStart.keys();
        long[] s = new long[n];
        long[] e = new long[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            long end = a.dataLoaderEnd.get(byStart.row(i));
            if (m > 0 && start[i] <= e[m - 1]) {
                e[m - 1] = Math.max(e[m - 1], end);
            } else {
                s[m] = start[i];
                e[m++] = end;
            }
        }
        return new HostReplay.Loading(java.util.Arrays.copyOf(s, m), java.util.Arrays.copyOf(e, m));
    }

    /**
     * For each pageable copy (in start order), the host time before it that a pinned loader takes off the loop's
     * thread ({@link HostReplay#releaseBefore}): priced on the first pageable copy after each DataLoader hand-over,
     * and only for a loader with worker processes ({@code _MultiProcessingDataLoaderIter}): a single-process loader's
     * batch is the loop's own memory, and {@code pin_memory=True} pins it on the loop's thread too.
     */
    private static long[] releases(KinetoAggregator a, long[] copyStart, long[] copyEnd) {
        long[] release = new long[copyStart.length];
        int n = a.dataLoaderEnd.size();
        boolean workers = a.dataLoaderWorkers != null && a.dataLoaderWorkers != 0;
        if (n == 0 || copyStart.length == 0 || !workers) return release;
        // the hand-overs in time order (one sort; the quiet-time search takes them so)
        ParallelSort.Order byEnd = ParallelSort.order(n, a.dataLoaderEnd::get);
        long[] end = byEnd.keys();
        long[] thread = new long[n];
        for (int i = 0; i < n; i++) thread[i] = a.dataLoaderThread.get(byEnd.row(i));
        long[] next = a.hostEvents.firstAfter(end, thread);
        for (int k = 0; k < n; k++) {
            long until = k + 1 < n ? end[k + 1] : Long.MAX_VALUE;
            int c = SortedLongs.below(copyStart, end[k]);
            if (c == copyStart.length || copyStart[c] >= until) continue; // no pageable copy of this batch
            release[c] = HostReplay.releaseBefore(end[k], next[k], copyStart[c], copyEnd[c] - copyStart[c]);
        }
        return release;
    }

    /**
     * A host-to-device copy from pageable memory: the batch copy {@code pin-memory-off} prices. A device-to-host copy
     * into pageable memory ({@code .cpu()}) is followed by PyTorch's own stream sync, which the sync points price.
     */
    private static boolean pageable(String[] kinds) {
        return "HtoD".equals(kinds[0]) && "Pageable".equals(kinds[1]);
    }

    /** Sorts {@code key[0..n)} and permutes {@code a} and {@code b} alike (primitive arrays, no object per row). */
    private static void sortBy(long[] key, long[] a, int[] b, int n) {
        long[] k = java.util.Arrays.copyOf(key, n);
        long[] order = new long[n];
        for (int i = 0; i < n; i++) order[i] = i;
        ParallelSort.sort(k, order);
        long[] a2 = new long[n];
        int[] b2 = new int[n];
        for (int i = 0; i < n; i++) {
            a2[i] = a[(int) order[i]];
            b2[i] = b[(int) order[i]];
        }
        System.arraycopy(k, 0, key, 0, n);
        System.arraycopy(a2, 0, a, 0, n);
        System.arraycopy(b2, 0, b, 0, n);
    }

    /** The copies (few) in start order. */
    private static void sortCopies(long[] s, long[] e, int[] st, long[] gpu, long[] pin) {
        int n = s.length;
        long[] k = s.clone();
        long[] order = new long[n];
        for (int i = 0; i < n; i++) order[i] = i;
        ParallelSort.sort(k, order);
        long[] e2 = new long[n];
        int[] st2 = new int[n];
        long[] gpu2 = new long[n];
        long[] pin2 = new long[n];
        for (int i = 0; i < n; i++) {
            int o = (int) order[i];
            e2[i] = e[o];
            st2[i] = st[o];
            gpu2[i] = gpu[o];
            pin2[i] = pin[o];
        }
        System.arraycopy(k, 0, s, 0, n);
        System.arraycopy(e2, 0, e, 0, n);
        System.arraycopy(st2, 0, st, 0, n);
        System.arraycopy(gpu2, 0, gpu, 0, n);
        System.arraycopy(pin2, 0, pin, 0, n);
    }
}
