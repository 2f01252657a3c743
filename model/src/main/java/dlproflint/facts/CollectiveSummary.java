package dlproflint.facts;

import java.io.Serializable;

/**
 * One kind of collective over a job's aligned steps, per rank and step.
 *
 * @param kind          the collective
 * @param host          true when it ran on the host (Gloo, MPI), false for communication kernels
 * @param ranks         ranks that ran it
 * @param callsPerStep  calls per rank and step
 * @param bytesPerStep  message bytes per rank and step, -1 when the profiles do not record sizes
 * @param timeNs        time per rank and step at least one call of the kind was in flight
 * @param waitNs        of which waiting for the slowest peer
 * @param waitSharePct  {@code waitNs / timeNs}
 */
public record CollectiveSummary(CollectiveKind kind, boolean host, int ranks, double callsPerStep, double bytesPerStep,
                                double timeNs, double waitNs, double waitSharePct) implements Serializable {
    public CollectiveSummary {
        waitSharePct = Percent.bounded(waitSharePct);
    }

    /** Communication kernels. */
    public CollectiveSummary(CollectiveKind kind, int ranks, double callsPerStep, double bytesPerStep, double timeNs,
                             double waitNs, double waitSharePct) {
        this(kind, false, ranks, callsPerStep, bytesPerStep, timeNs, waitNs, waitSharePct);
    }

    /** How reports name it: {@code all-reduce}, or {@code all-reduce (host)} for a host-side collective. */
    public String label() {
        return host ? kind.label() + " (host)" : kind.label();
    }
}
