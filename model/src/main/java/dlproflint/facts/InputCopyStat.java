package dlproflint.facts;

/**
 * Host-to-device copies of the DataLoader's batches: copies launched after a DataLoader call returned and
 * before the next kernel launch (the {@code batch.to("cuda")} of a training loop), inside the analysed range.
 * Absent when the profile has no DataLoader calls or no such copy.
 *
 * @param copies          such copies
 * @param pageableCopies  those whose source is pageable host memory (the DataLoader did not pin its batches)
 * @param pageableBytes   bytes they moved
 * @param pageableGpuNs   their GPU time
 * @param pageableHostNs  host time in the calls that launched them (a copy from pageable memory blocks the
 *                        host even when launched with {@code non_blocking=True})
 * @param pageableSavingNs what pinned, non-blocking copies save over the aggregated steps, from the measurement
 *                         layer's replay of host and GPU ({@code extract.common.HostReplay}): the host no longer waits
 *                         for the copy and the queue before it, and the copy runs at the pinned rate; -1 when not replayed
 * @param replayStepNs     the replayed step (as recorded, without the profiler's overhead) the saving is a share of;
 *                         0 when not replayed
 * @param pageableReleaseNs of the host time the replay takes off, the loop thread's quiet time between a DataLoader
 *                         hand-over and the batch's pageable copy (releasing the previous batch's shared memory,
 *                         which a pinned loader does on its own thread), over the aggregated steps; 0 when none
 */
public record InputCopyStat(long copies, long pageableCopies, long pageableBytes, long pageableGpuNs,
                            long pageableHostNs, long pageableSavingNs, double replayStepNs, long pageableReleaseNs) {
    /** Without a replayed saving. */
    public InputCopyStat(long copies, long pageableCopies, long pageableBytes, long pageableGpuNs, long pageableHostNs) {
        this(copies, pageableCopies, pageableBytes, pageableGpuNs, pageableHostNs, -1, 0, 0);
    }

    /** The same with the replay's saving and the batch release it counted. */
    public InputCopyStat withSaving(long ns, double stepNs, long releaseNs) {
        return new InputCopyStat(copies, pageableCopies, pageableBytes, pageableGpuNs, pageableHostNs, ns, stepNs,
                releaseNs);
    }
}
