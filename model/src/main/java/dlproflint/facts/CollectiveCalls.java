package dlproflint.facts;

import java.io.Serializable;

/**
 * One step's communication kernels of one kind, in one process.
 *
 * @param step   step number (as in {@link StepActivity#step()})
 * @param calls  kernel launches
 * @param timeNs their summed durations (each launch's wait for its peers included)
 * @param bytes  message bytes when the profile records sizes (Kineto's collective metadata), -1 when unknown
 */
public record CollectiveCalls(int step, CollectiveKind kind, long calls, long timeNs, long bytes) implements Serializable {
    public boolean bytesKnown() {
        return bytes >= 0;
    }
}
