package dlproflint.facts;

import java.io.Serializable;

/**
 * One distributed job as the cross-rank reduction sees it: which ranks it was given and read, how they were
 * identified, how their steps were aligned, and how the per-rank means spread over the ranks.
 *
 * @param label           how reports name the job (the folder of its profiles, or the first profile)
 * @param worldSize       ranks the job had, from the profiles ({@code distributedInfo}, communicator data,
 *                        environment); the number of ranks read when no profile says
 * @param worldSizeSource where {@code worldSize} comes from ({@code distributedInfo}, {@code nccl-communicator},
 *                        {@code environment}, {@code ranks read})
 * @param rankSource      how the ranks were identified; several sources joined by {@code ", "}
 * @param backend         communication backend ({@code nccl}, {@code gloo}) or null
 * @param profilesGiven   profile files given
 * @param ranksRead       distinct ranks whose profiles were read and kept
 * @param missingRanks    ranks below {@code worldSize} without a kept profile, written compactly ({@code 3,8-11}); empty when none
 * @param alignedSteps    steps every kept rank has (aligned by step number, or by position when the numbers differ)
 * @param stepAlignment   {@code step-number} or {@code position}
 * @param collectivesSeen at least one rank ran collectives: communication kernels, or collectives run on the host
 *                        (Gloo); without them waiting cannot be measured
 * @param stepNs          spread over ranks of the mean step duration
 * @param computeNs       ... of compute time per step
 * @param commNs          ... of communication time per step
 * @param exposedCommNs   ... of exposed communication per step
 * @param dataLoaderNs    ... of data-loader time per step
 * @param idleNs          ... of GPU idle time per step
 * @param waitNs          ... of time per step spent waiting in collectives for the slowest peer
 * @param workNs          ... of the time per step a rank needs before it can enter its collectives
 *                        (see {@link RankStats#workNs()}): what makes a straggler
 * @param overlapPct      share of the job's communication time that compute overlapped (summed over ranks)
 */
public record JobInfo(String label, int worldSize, String worldSizeSource, String rankSource, String backend,
                      int profilesGiven, int ranksRead, String missingRanks, int alignedSteps, String stepAlignment,
                      boolean collectivesSeen, RankSpread stepNs, RankSpread computeNs, RankSpread commNs,
                      RankSpread exposedCommNs, RankSpread dataLoaderNs, RankSpread idleNs, RankSpread waitNs,
                      RankSpread workNs, double overlapPct) implements Serializable {
    public JobInfo {
        overlapPct = Percent.bounded(overlapPct);
    }

    /** Ranks the world size says exist but no kept profile covers. */
    public int missingCount() {
        return Math.max(0, worldSize - ranksRead);
    }
}
