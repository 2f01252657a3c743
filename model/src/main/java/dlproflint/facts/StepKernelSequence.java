package dlproflint.facts;

/**
 * Whether the aggregated steps launch the same kernels in the same order every time: the precondition for
 * capturing a step in a CUDA graph (or {@code torch.compile(mode="reduce-overhead")}). Each step's signature
 * is the sequence of kernel names it ran on each stream. Absent when the profile has fewer than two steps
 * with kernels.
 *
 * @param steps            aggregated steps that ran kernels
 * @param identicalSteps   the largest number of them sharing one signature
 * @param kernelsPerStep   kernels in a step of that signature
 * @param stepKernelNs     GPU time of those kernels in one such step (mean)
 * @param graphLaunches    {@code cudaGraphLaunch} calls in the profile (some work already runs as graphs)
 */
public record StepKernelSequence(int steps, int identicalSteps, long kernelsPerStep, long stepKernelNs,
                                 long graphLaunches) {
    /** Share of the steps with the common signature, 0..100. */
    public double identicalPct() {
        return Percent.of(identicalSteps, steps);
    }
}
