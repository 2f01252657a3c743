package dlproflint.facts;

/**
 * Kernel launches of the analysed range joined to the host calls that launched them (HTA's CUDA kernel
 * launch statistics and queue length): whether the host keeps ahead of the GPU. Absent when kernels cannot
 * be linked to their launch calls.
 *
 * @param launches           kernels linked to their launch call ({@code cudaLaunchKernel}, {@code cuLaunchKernel}, ...)
 * @param kernelNs           their GPU time
 * @param launchCallNs       host time in their launch calls
 * @param shorterThanLaunch  launches whose kernel ran shorter than its launch call, for calls up to 50 µs
 *                           (HTA's "short GPU kernels": the host cannot launch them as fast as they run)
 * @param launchOutliers     launch calls longer than 50 µs (HTA's runtime cutoff)
 * @param delayOutliers      launches whose kernel started more than 100 µs after the call returned (HTA's
 *                           launch-delay cutoff: the GPU was busy, i.e. the host was ahead)
 * @param medianDelayNs      median of kernel start − launch call end (clipped at 0)
 * @param emptyQueueLaunches launches that found their stream's queue empty: every earlier kernel of the stream
 *                           had started, so the GPU was at most finishing one when the next arrived
 * @param meanQueueLength    mean number of kernels launched but not yet started on the stream, at each launch
 */
public record LaunchStat(long launches, long kernelNs, long launchCallNs, long shorterThanLaunch,
                         long launchOutliers, long delayOutliers, long medianDelayNs, long emptyQueueLaunches,
                         double meanQueueLength) {
    public double shorterThanLaunchPct() {
        return Percent.of(shorterThanLaunch, launches);
    }

    public double emptyQueuePct() {
        return Percent.of(emptyQueueLaunches, launches);
    }
}
