package dlproflint.packs.nsys;

import dlproflint.facts.KernelFact;

import java.util.List;

/**
 * Launch-boundness of a profile from its kernel facts: per kernel name (and op), the average kernel
 * duration is compared with the average duration of the API call that launched it, and kernels under a
 * short-kernel threshold are counted with their GPU time.
 *
 * @param launchBoundLaunches launches of kernels whose average duration is below their average launch time
 */
public record LaunchStats(long launches, long launchBoundLaunches, long kernelNs, long shortKernelNs,
                          long launchNs, long launchesWithApiTime) {

    public static LaunchStats of(List<?> kernels, double shortKernelUs) {
        long launches = 0;
        long bound = 0;
        long kernelNs = 0;
        long shortNs = 0;
        long launchNs = 0;
        long withApi = 0;
        double shortNsLimit = shortKernelUs * 1000.0;
        for (Object o : kernels) {
            KernelFact k = (KernelFact) o;
            long n = k.gpuTime().count();
            launches += n;
            kernelNs += k.gpuTime().total();
            if (n > 0 && k.gpuTime().avg() < shortNsLimit) shortNs += k.gpuTime().total();
            if (k.apiTime().count() > 0) {
                withApi += k.apiTime().count();
                launchNs += k.apiTime().total();
                if (k.gpuTime().avg() < k.apiTime().avg()) bound += n;
            }
        }
        return new LaunchStats(launches, bound, kernelNs, shortNs, launchNs, withApi);
    }

    public double launchBoundPct() {
        return dlproflint.facts.Percent.of(launchBoundLaunches, launches); // a subset of the launches
    }

    public double shortTimePct() {
        return dlproflint.facts.Percent.of(shortKernelNs, kernelNs); // a subset of the kernel time
    }

    /** The stronger of the two signals. */
    public double worstSharePct() {
        return Math.max(launchBoundPct(), shortTimePct());
    }

    public double avgKernelNs() {
        return launches == 0 ? 0 : (double) kernelNs / launches;
    }

    public double avgLaunchNs() {
        return launchesWithApiTime == 0 ? 0 : (double) launchNs / launchesWithApiTime;
    }
}
