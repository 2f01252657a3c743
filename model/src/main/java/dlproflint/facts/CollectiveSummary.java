package dlproflint.facts;

import java.io.Serializable;

/**
 * One kind of collective over a job's aligned steps, per rank and step.
 *
 * @param ranks         ranks that ran it
 * @param callsPerStep  launches per rank and step
 * @param bytesPerStep  message bytes per rank and step, -1 when the profiles do not record sizes
 * @param timeNs        kernel time per rank and step
 * @param waitNs        of which waiting for the slowest peer
 * @param waitSharePct  {@code waitNs / timeNs}
 */
public record CollectiveSummary(CollectiveKind kind, int ranks, double callsPerStep, double bytesPerStep,
                                double timeNs, double waitNs, double waitSharePct) implements Serializable {
    public CollectiveSummary {
        waitSharePct = Percent.bounded(waitSharePct);
    }
}
