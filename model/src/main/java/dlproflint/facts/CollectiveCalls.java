package dlproflint.facts;

import java.io.Serializable;

/**
 * One step's collectives of one kind, in one process, where they ran: as GPU kernels (NCCL) or on the host
 * (Gloo and MPI run a collective on a CPU thread; the profiler records the work from the moment that thread
 * starts it until every peer has taken part, so, like an NCCL kernel, it includes the wait for the last rank).
 *
 * @param step   step number (as in {@link StepActivity#step()})
 * @param host   true for host-side collectives ({@code gloo:*} work spans), false for communication kernels
 * @param calls  kernel launches or host-side calls
 * @param timeNs their summed durations (each call's wait for its peers included)
 * @param busyNs time at least one of them was in flight (overlapping calls counted once): equal to
 *               {@code timeNs} for kernels serialised on one stream, less where calls run at once (Gloo runs
 *               several works on its worker threads at the same time)
 * @param bytes  message bytes when the profile records sizes (Kineto's collective metadata, a host call's
 *               input shapes), -1 when unknown
 */
public record CollectiveCalls(int step, CollectiveKind kind, boolean host, long calls, long timeNs, long busyNs,
                              long bytes) implements Serializable {
    /** Communication kernels serialised on one stream: busy as long as their summed time. */
    public CollectiveCalls(int step, CollectiveKind kind, long calls, long timeNs, long bytes) {
        this(step, kind, false, calls, timeNs, timeNs, bytes);
    }

    public boolean bytesKnown() {
        return bytes >= 0;
    }
}
