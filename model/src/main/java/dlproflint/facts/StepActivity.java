package dlproflint.facts;

import java.io.Serializable;

/**
 * What the GPU and the data loader did in one training step of one process, measured on its own clock.
 * GPU work counts for the step that launched it (wherever on the GPU's clock it ran), a host-side collective for the
 * step whose CPU window holds its start; times are lengths of merged intervals, so overlapping kernels on several
 * streams count once.
 *
 * @param step          the step number the profile gives it ({@code ProfilerStep#N}; the iteration index otherwise)
 * @param startNs       the step's start on the profile's clock
 * @param stepNs        the step's duration
 * @param computeNs     time any compute kernel (not communication, not a copy) ran
 * @param commNs        time any communication kernel or host-side collective ({@link CollectiveCalls#host()}) was in flight
 * @param exposedCommNs communication time during which no compute kernel ran on any stream
 * @param dataLoaderNs  time in the data loader ({@code enumerate(DataLoader)#...__next__}) inside the step
 * @param idleNs        time of the step's duration in which no kernel, copy or memset ran and no host-side
 *                      collective was in flight (a GPU waiting for a Gloo all-reduce is waiting for communication,
 *                      counted in {@code exposedCommNs}, not idle for host work)
 */
public record StepActivity(int step, long startNs, long stepNs, long computeNs, long commNs, long exposedCommNs,
                           long dataLoaderNs, long idleNs) implements Serializable {
    /** Communication that ran while compute also ran (what overlap hides). */
    public long overlappedCommNs() {
        return Math.max(0, commNs - exposedCommNs);
    }
}
