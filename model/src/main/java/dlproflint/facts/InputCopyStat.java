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
 */
public record InputCopyStat(long copies, long pageableCopies, long pageableBytes, long pageableGpuNs,
                            long pageableHostNs) {
}
