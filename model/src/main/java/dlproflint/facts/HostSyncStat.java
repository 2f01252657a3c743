package dlproflint.facts;

import java.util.List;

/**
 * Host-GPU synchronisation points inside the analysed range: calls that block the host until the GPU has
 * caught up ({@code aten::item}, {@code aten::_local_scalar_dense}, {@code aten::nonzero},
 * {@code cudaStreamSynchronize}, {@code cudaDeviceSynchronize}, {@code cudaEventSynchronize}). Nested calls
 * (the {@code cudaStreamSynchronize} inside {@code aten::item}) count once, as their outermost call.
 * Absent when the profile has no such call.
 *
 * @param syncPoints    outermost synchronising calls in the analysed range
 * @param blockedNs     host time inside them
 * @param gpuIdleNs     GPU idle time from the start of each call until the GPU's next operation after it:
 *                      the queue drains while the host waits, and the GPU waits again while the host
 *                      launches new work; -1 when not measured
 * @param steps         aggregated steps (0: the profile has no steps)
 * @param stepsWithSync aggregated steps with at least one synchronisation point
 * @param calls         the calls by name, most first, as {@code "aten::item: 12"} (at most 6)
 * @param savingNs      what removing the sync points saves over the aggregated steps, from the measurement layer's
 *                      replay of host and GPU without the profiler's overhead ({@code extract.common.HostReplay}):
 *                      the overlap the syncs destroy; -1 when not replayed (no steps, no launch links)
 * @param replayStepNs  the replayed step (as recorded, without the profiler's overhead) the saving is a share of; 0
 *                      when not replayed
 * @param scalerSyncPoints the sync points that lie between a step's GradScaler unscale/inf check
 *                      ({@code aten::_amp_foreach_non_finite_check_and_unscale_}) and its scale update
 *                      ({@code aten::_amp_update_scale_}) on the same thread: {@code scaler.step()} reading the inf flag
 *                      on the host, which it does with an optimizer that cannot take the check on the GPU (not fused)
 */
public record HostSyncStat(long syncPoints, long blockedNs, long gpuIdleNs, int steps, int stepsWithSync,
                           List<String> calls, long savingNs, double replayStepNs, long scalerSyncPoints) {
    public HostSyncStat {
        calls = calls == null ? List.of() : List.copyOf(calls);
    }

    /** Without a replayed saving. */
    public HostSyncStat(long syncPoints, long blockedNs, long gpuIdleNs, int steps, int stepsWithSync, List<String> calls) {
        this(syncPoints, blockedNs, gpuIdleNs, steps, stepsWithSync, calls, -1, 0, 0);
    }

    /** The same with the replay's saving. */
    public HostSyncStat withSaving(long ns, double stepNs) {
        return new HostSyncStat(syncPoints, blockedNs, gpuIdleNs, steps, stepsWithSync, calls, ns, stepNs, scalerSyncPoints);
    }

    /** The same with {@code n} of the sync points found to be GradScaler's inf check. */
    public HostSyncStat withScalerSyncPoints(long n) {
        return new HostSyncStat(syncPoints, blockedNs, gpuIdleNs, steps, stepsWithSync, calls, savingNs, replayStepNs, n);
    }

    /** Synchronisation points per aggregated step (over the range when there are no steps). */
    public double perStep() {
        return steps <= 0 ? syncPoints : (double) syncPoints / steps;
    }
}
