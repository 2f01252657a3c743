package dlproflint.facts;

/**
 * One kernel row of {@link KernelFact}'s granularity (owning op, kernel name, device) inside one aggregated
 * iteration: how often it ran there and for how long (DLProf's Kernels by Iteration and Kernels by Op views).
 * Readers aggregate while streaming and keep at most {@link #MAX_ROWS} rows per profile. When the aggregated
 * iterations have more rows than that, readers keep whole iterations, evenly spread: every iteration whose
 * distance from the first aggregated one is a multiple of a stride (1, 2, 4, ...), the smallest stride that
 * fits, and add an {@code iteration-kernels-sampled} warning. An itemised iteration is complete: its rows'
 * {@code calls} sum to {@link Iteration#kernelCount()}, unless a single iteration alone has more than
 * {@code MAX_ROWS} rows.
 *
 * @param iteration    iteration index ({@link Iteration#index()})
 * @param opId         owning op's id, as in {@link KernelFact#opId()}
 * @param name         short kernel name, as in {@link KernelFact#name()}
 * @param calls        launches in the iteration
 * @param gpuTimeNs    their total GPU time
 * @param firstStartNs GPU start of the first of them (profile clock)
 */
public record IterationKernel(int iteration, String opId, String name, int deviceId, boolean usesTc, long calls,
                              long gpuTimeNs, long firstStartNs) {
    /** Most rows a reader keeps for one profile (about 20 MB of heap while reading). */
    public static final int MAX_ROWS = 200_000;
}
