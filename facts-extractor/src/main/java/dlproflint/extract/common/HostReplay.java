package dlproflint.extract.common;

import java.util.Arrays;

/**
 * Replays the host and the GPU of the aggregated steps to price what blocks the host: a sync point (the host waits
 * until the GPU has run everything queued) and a copy from pageable memory (the host stages the data itself and
 * waits for the copy). In a healthy loop the host runs ahead and the GPU works off a queue; a blocking call drains
 * that queue, and the GPU then waits while the host launches again. Measured idle gaps cannot tell which of them a
 * fix recovers (a host-bound loop leaves the GPU idle anyway), so the replay answers the counterfactual directly:
 *
 * <ol>
 *   <li>The host's clock is the profiled one minus the profiler's own cost ({@code perEventNs} for every recorded
 *   host event before that moment, {@link CaptureOverhead}) and minus the time the host spent blocked in the calls
 *   being priced (the replay decides how long they wait).</li>
 *   <li>Each GPU operation starts when its launch call has been made on that clock (plus {@link #LAUNCH_LATENCY_NS})
 *   and its stream is free, and lasts what it lasted: GPU work is not slowed by the profiler.</li>
 *   <li>A blocking call waits until the GPU has finished everything launched before it (a pageable copy: until the
 *   copy itself has finished).</li>
 * </ol>
 * The steps last until both the host and the GPU are done. Replayed four times — as recorded, without the sync
 * points, with the pageable copies made pinned and non-blocking (and the batch release before each taken off the
 * loop's thread, {@link #releaseBefore}), and with a loader that keeps up (the loop's data-loading calls taken off its
 * clock, {@link Loading}) — the differences are what removing each cause saves, and the first replay is the estimate
 * of the step without the profiler.
 */
public final class HostReplay {
    /** Delay from a launch call to the earliest start of its work on an idle GPU. */
    public static final long LAUNCH_LATENCY_NS = 3_000;

    /** GPU operations launched from the host, by launch time (host clock, profiled). */
    public record Launches(long[] callNs, long[] durationNs, int[] stream) {
    }

    /**
     * Calls that block the host: {@code syncs} (outermost sync points; {@code syncDevice}: the whole device, as
     * {@code cudaDeviceSynchronize}; otherwise the stream the host launched on last, as {@code .item()} and
     * {@code cudaStreamSynchronize} on the current stream) and pageable copies (their call interval,
     * the copy's stream, recorded GPU duration, the duration the same copy would take from pinned memory, and
     * {@code copyReleaseNs}: host time before the copy that a pinned loader takes off the loop's thread — the loop
     * releasing the previous pageable batch, see {@link #releaseBefore}).
     */
    public record Blocking(long[] syncStart, long[] syncEnd, boolean[] syncDevice, long[] copyStart, long[] copyEnd,
                           int[] copyStream, long[] copyGpuNs, long[] copyPinnedNs, long[] copyReleaseNs) {
        /** Without release time before the copies. */
        public Blocking(long[] syncStart, long[] syncEnd, boolean[] syncDevice, long[] copyStart, long[] copyEnd,
                        int[] copyStream, long[] copyGpuNs, long[] copyPinnedNs) {
            this(syncStart, syncEnd, syncDevice, copyStart, copyEnd, copyStream, copyGpuNs, copyPinnedNs,
                    new long[copyStart.length]);
        }

        public static Blocking none() {
            return new Blocking(new long[0], new long[0], new boolean[0], new long[0], new long[0], new int[0], new long[0],
                    new long[0]);
        }
    }

    /**
     * The loop's data-loading calls (the DataLoader's {@code __next__}), merged, in start order: host time a loader that
     * keeps up (worker processes, prefetching) takes off the loop, leaving the batch ready when the loop asks for it.
     */
    public record Loading(long[] start, long[] end) {
        public static Loading none() {
            return new Loading(new long[0], new long[0]);
        }
    }

    /**
     * The host time a pinned loader saves the loop before a pageable batch copy. A DataLoader's workers hand their
     * batches over in shared memory; with {@code pin_memory=False} the loop's thread holds them, and rebinding the
     * loop variable ({@code for x, y in loader}) releases the previous batch there: unmapping its pages, a few
     * hundred nanoseconds per 4 KiB page, milliseconds for a batch of tens of MB, and no profiler event records it.
     * With {@code pin_memory=True} the loader's pin thread copies and releases the shared batch instead. So the
     * quiet time on the loop's thread from the loader's hand-over to its next recorded event, when that event comes
     * no later than the copy, is priced — but at most the copy call's own host time: releasing pages costs no more
     * than mapping and copying the same pages did, which bounds what user code run between the two may add.
     *
     * @param handedOverNs the end of the DataLoader call that returned the batch
     * @param nextEventNs  the first event the profiler recorded on that thread after it
     * @param copyCallNs   the start of the batch's copy call
     * @param copyHostNs   the host time of that copy call
     */
    public static long releaseBefore(long handedOverNs, long nextEventNs, long copyCallNs, long copyHostNs) {
        if (nextEventNs < handedOverNs || nextEventNs > copyCallNs) return 0;
        return Math.max(0, Math.min(nextEventNs - handedOverNs, copyHostNs));
    }

    /**
     * @param stepNs        the replayed step as recorded, without the profiler's overhead (per step)
     * @param syncSavingNs  what removing the sync points saves per step
     * @param copySavingNs  what pinned, non-blocking batch copies save per step
     * @param overheadNs    the profiler's host overhead per step taken out of the host's clock
     * @param releaseNs     of {@code copySavingNs}'s host time, the release of pageable batches before their copies
     *                      (per step, {@link #releaseBefore})
     * @param loadSavingNs  what a loader that keeps up saves per step: the loop's data-loading calls taken off its
     *                      host clock (0 without any)
     */
    public record Result(double stepNs, double syncSavingNs, double copySavingNs, double overheadNs, double releaseNs,
                         double loadSavingNs) {
    }

    private HostReplay() {
    }

    /**
     * @param from, to        the aggregated range on the host
     * @param steps           aggregated steps in it (at least 1)
     * @param hostEvents      start times of every recorded host event (sorted), the profiler's cost is per event
     * @param perEventNs      the profiler's host cost per recorded event
     */
    public static Result replay(long from, long to, int steps, long[] hostEvents, double perEventNs,
                                Launches launches, Blocking blocking) {
        return replay(from, to, steps, hostEvents, perEventNs, launches, blocking, Loading.none());
    }

    /** The same, and once more without the loop's data loading ({@link Result#loadSavingNs}). */
    public static Result replay(long from, long to, int steps, long[] hostEvents, double perEventNs,
                                Launches launches, Blocking blocking, Loading loading) {
        Streams streams = new Streams(launches.stream(), blocking.copyStream());
        double asRecorded = run(from, to, hostEvents, perEventNs, launches, blocking, loading, streams, true, true, true);
        double noSyncs = run(from, to, hostEvents, perEventNs, launches, blocking, loading, streams, false, true, true);
        double pinned = run(from, to, hostEvents, perEventNs, launches, blocking, loading, streams, true, false, true);
        double fed = loading.start().length == 0 ? asRecorded
                : run(from, to, hostEvents, perEventNs, launches, blocking, loading, streams, true, true, false);
        int k = Math.max(1, steps);
        long events = count(hostEvents, from, to);
        long release = 0;
        for (int i = 0; i < blocking.copyStart().length; i++) {
            if (blocking.copyStart()[i] >= from && blocking.copyStart()[i] < to) release += blocking.copyReleaseNs()[i];
        }
        return new Result(asRecorded / k, Math.max(0, asRecorded - noSyncs) / k, Math.max(0, asRecorded - pinned) / k,
                perEventNs * events / k, release / (double) k, Math.max(0, asRecorded - fed) / k);
    }

    private static long count(long[] sorted, long from, long to) {
        return lowerBound(sorted, to) - lowerBound(sorted, from);
    }

    private static int lowerBound(long[] a, long v) {
        int i = Arrays.binarySearch(a, v);
        if (i < 0) return -i - 1;
        while (i > 0 && a[i - 1] == v) i--;
        return i;
    }

    /**
     * The streams of the launches and the copies as dense indexes, made once for the four runs: a run then keeps when
     * each stream is free in an array (a run visits every launch of the range).
     */
    private static final class Streams {
        final int[] launch;
        final int[] copy;
        final int count;

        Streams(int[] launchStreams, int[] copyStreams) {
            int[] ids = java.util.stream.IntStream.concat(Arrays.stream(launchStreams), Arrays.stream(copyStreams))
                    .distinct().sorted().toArray();
            launch = index(launchStreams, ids);
            copy = index(copyStreams, ids);
            count = ids.length;
        }

        private static int[] index(int[] streams, int[] ids) {
            int[] out = new int[streams.length];
            for (int i = 0; i < out.length; i++) out[i] = Arrays.binarySearch(ids, streams[i]);
            return out;
        }
    }

    /** The replayed length of [from, to): until the host and the GPU are both done. */
    private static double run(long from, long to, long[] hostEvents, double perEventNs, Launches l, Blocking b,
                              Loading ld, Streams streams, boolean syncsBlock, boolean copiesBlock, boolean loadsBlock) {
        int firstEvent = lowerBound(hostEvents, from);
        // the calls whose recorded time the replay decides: sync points and pageable copies, merged by start
        int ns = b.syncStart().length;
        int nc = b.copyStart().length;
        double[] streamFree = new double[streams.count];
        // the moments the merge below visits only go forward: host events and copies before them are counted by
        // cursors rather than searched for at every launch
        int eventsBefore = firstEvent;
        int copiesStarted = 0;
        double gpuEnd = 0;     // replayed GPU completion, relative to from
        int lastStream = -1;   // the stream the host launched on last: the one .item() and stream syncs wait for
        double removed = 0;    // recorded blocked time taken off the host clock
        double waited = 0;     // replayed waiting added to it
        int li = 0;
        int si = 0;
        int ci = 0;
        int di = 0;
        int nd = ld.start().length;
        long[] calls = l.callNs();
        // skip work launched before the range
        while (li < calls.length && calls[li] < from) li++;
        while (si < ns && b.syncStart()[si] < from) si++;
        while (ci < nc && b.copyStart()[ci] < from) ci++;
        while (di < nd && ld.start()[di] < from) di++;
        while (true) {
            long next = Long.MAX_VALUE;
            int kind = -1;
            if (li < calls.length && calls[li] < to && calls[li] < next) { next = calls[li]; kind = 0; }
            if (si < ns && b.syncStart()[si] < to && b.syncStart()[si] < next) { next = b.syncStart()[si]; kind = 1; }
            if (ci < nc && b.copyStart()[ci] < to && b.copyStart()[ci] <= next) { next = b.copyStart()[ci]; kind = 2; }
            if (di < nd && ld.start()[di] < to && ld.start()[di] < next) { next = ld.start()[di]; kind = 3; }
            if (kind < 0) break;
            if (kind == 3) {
                // a loader that keeps up hands the batch over at once: the call's time comes off the host clock (less
                // its recorded events, whose profiler cost the clock already leaves out)
                long end = Math.min(ld.end()[di], to);
                if (!loadsBlock) {
                    removed += Math.max(0, (end - next) - perEventNs * (lowerBound(hostEvents, end) - lowerBound(hostEvents, next)));
                }
                di++;
                continue;
            }
            while (eventsBefore < hostEvents.length && hostEvents[eventsBefore] < next) eventsBefore++;
            double host = (next - from) - perEventNs * (eventsBefore - firstEvent) - removed + waited;
            if (kind == 0) {
                while (copiesStarted < nc && b.copyStart()[copiesStarted] <= calls[li]) copiesStarted++;
                if (insideCopy(b, copiesStarted - 1, calls[li])) { li++; continue; } // the copy's own launch: replayed as the copy
                int s = streams.launch[li];
                double start = Math.max(host + LAUNCH_LATENCY_NS, streamFree[s]);
                double end = start + l.durationNs()[li];
                streamFree[s] = end;
                gpuEnd = Math.max(gpuEnd, end);
                lastStream = s;
                li++;
            } else if (kind == 1) {
                long end = b.syncEnd()[si];
                removed += end - next;
                double until = b.syncDevice()[si] || lastStream < 0 ? gpuEnd : streamFree[lastStream];
                if (syncsBlock) waited += Math.max(0, until - host);
                // nested or overlapping launches inside the sync call are not expected; skip past it
                si++;
            } else {
                long end = b.copyEnd()[ci];
                removed += end - next;
                if (!copiesBlock) { // the pinned loop's thread did not release the previous batch before the copy
                    removed += b.copyReleaseNs()[ci];
                    host -= b.copyReleaseNs()[ci];
                }
                int s = streams.copy[ci];
                double start = Math.max(host + LAUNCH_LATENCY_NS, streamFree[s]);
                double copyEnd = start + (copiesBlock ? b.copyGpuNs()[ci] : b.copyPinnedNs()[ci]);
                streamFree[s] = copyEnd;
                gpuEnd = Math.max(gpuEnd, copyEnd);
                if (copiesBlock) waited += Math.max(0, copyEnd - host);
                ci++;
            }
        }
        double hostEnd = (to - from) - perEventNs * (lowerBound(hostEvents, to) - firstEvent) - removed + waited;
        return Math.max(hostEnd, gpuEnd);
    }

    /** Whether {@code call} lies inside copy {@code i}, the last copy that started no later than it (-1: none). */
    private static boolean insideCopy(Blocking b, int i, long call) {
        return i >= 0 && call >= b.copyStart()[i] && call < b.copyEnd()[i];
    }
}
