package dlproflint.facts;

import java.io.Serializable;

/**
 * One rank of a job, averaged over the aligned steps (per step, nanoseconds).
 *
 * @param profile       the profile file the rank was read from
 * @param waitNs        time per step this rank's collectives spent waiting for the slowest peer: its
 *                      communication time minus the least any rank needed for the same step's collectives
 *                      of the same kind (collectives finish together, so the rank that arrives last waits least)
 * @param workNs        what the rank needs per step before it can enter its collectives: {@code stepNs} minus how
 *                      late it arrives at them (its wait per collective call, of the kind where that is largest;
 *                      not the summed {@code waitNs}, which grows with the number of calls a rank is a little late to)
 * @param lastArrivals  aligned steps in which this rank waited least (arrived last at the collectives)
 * @param overlapPct    share of its communication time that compute overlapped
 */
public record RankStats(int rank, String profile, int steps, double stepNs, double computeNs, double commNs,
                        double exposedCommNs, double dataLoaderNs, double idleNs, double waitNs, double workNs,
                        int lastArrivals, double overlapPct) implements Serializable {
    public RankStats {
        overlapPct = Percent.bounded(overlapPct);
    }

    /** Share of the aligned steps in which this rank arrived last, 0..100. */
    public double lastArrivalPct() {
        return Percent.of(lastArrivals, steps);
    }
}
