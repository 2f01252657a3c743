package dlproflint.facts;

/**
 * PyTorch DataLoader activity seen in the profile ({@code enumerate(DataLoader)#...__next__} calls).
 *
 * @param workers      {@code 0} for the single-process iterator (data loaded on the training thread),
 *                     {@code -1} for the multiprocessing iterator (worker count not recorded), null unknown
 * @param calls        number of {@code __next__} calls
 * @param totalNs      their total duration
 * @param inStepsPct   their duration inside iteration windows, as a share of the iterations' duration
 */
public record DataLoaderStat(Integer workers, long calls, long totalNs, double inStepsPct) {
    public DataLoaderStat {
        inStepsPct = Percent.bounded(inStepsPct); // merged intervals inside the steps' windows
    }
}
