package dlproflint.facts;

/**
 * PyTorch DataLoader activity seen in the profile ({@code enumerate(DataLoader)#...__next__} calls).
 *
 * @param workers      {@code 0} for the single-process iterator (data loaded on the training thread),
 *                     {@code -1} for the multiprocessing iterator (worker count not recorded), null unknown
 * @param calls        number of {@code __next__} calls
 * @param totalNs      their total duration
 * @param inStepsPct   their duration inside iteration windows, as a share of the iterations' duration
 * @param savingNs     what a loader that keeps up (the batch ready when the loop asks) saves over the aggregated steps,
 *                     from the measurement layer's replay of host and GPU without the profiler's overhead
 *                     ({@code extract.common.HostReplay}); -1 when not replayed
 * @param replayStepNs the replayed step (as recorded, without the profiler's overhead) the saving is a share of; 0 when
 *                     not replayed
 */
public record DataLoaderStat(Integer workers, long calls, long totalNs, double inStepsPct, long savingNs,
                             double replayStepNs) {
    public DataLoaderStat {
        inStepsPct = Percent.bounded(inStepsPct); // merged intervals inside the steps' windows
    }

    /** Without a replayed saving. */
    public DataLoaderStat(Integer workers, long calls, long totalNs, double inStepsPct) {
        this(workers, calls, totalNs, inStepsPct, -1, 0);
    }

    /** Replayed: the saving over the aggregated steps, and the replayed step it is a share of. */
    public boolean replayed() {
        return savingNs >= 0 && replayStepNs > 0;
    }
}
