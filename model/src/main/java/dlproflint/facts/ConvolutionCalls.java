package dlproflint.facts;

/**
 * The convolution calls of a trace that records each call's kernels (Kineto), for telling whether cuDNN searched for
 * algorithms ({@code torch.backends.cudnn.benchmark}). With benchmark on, the first call of each convolution shape runs
 * every candidate algorithm, a kernel set each, so that one call launches many distinct kernels; later calls, and
 * every call with benchmark off, launch the chosen algorithm's one to four. A capture shows the search only where it
 * holds a shape's first call: from the loop's first step, not after a profiler schedule's warm-up. Absent when the
 * trace has no convolution calls with kernels.
 *
 * @param calls              convolution op calls (each by its own op id) that launched kernels
 * @param maxDistinctKernels the most distinct kernel names one of them launched
 * @param firstStepNumber    the number of the first captured step as its marker gives it ({@code ProfilerStep#N}),
 *                           -1 when the steps carry no numbers
 */
public record ConvolutionCalls(long calls, int maxDistinctKernels, long firstStepNumber) {
}
