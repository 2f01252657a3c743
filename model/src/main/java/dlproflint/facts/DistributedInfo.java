package dlproflint.facts;

import java.io.Serializable;

/**
 * Which rank of which distributed job a profile is, as the profile itself records it. Absent (null in
 * {@link ProfileFacts}) when the profile says nothing about a job.
 *
 * @param rank          global rank, -1 when unknown
 * @param worldSize     number of ranks in the job, 0 when unknown
 * @param backend       {@code nccl}, {@code gloo}, ... or null
 * @param source        where rank and world size were read: {@code distributedInfo} (Kineto's metadata),
 *                      {@code nccl-communicator} (the collective metadata on NCCL kernels and calls),
 *                      {@code environment} (the profiled process's RANK/WORLD_SIZE, OMPI_*, PMI_*, SLURM_*)
 * @param jobId         an identifier of the job run when the profile records one (scheduler job id,
 *                      torchelastic run id, rendezvous address, job-name metadata), else null
 * @param processGroups the process groups' names and sizes ({@code 0:300,1:8}), or null
 */
public record DistributedInfo(int rank, int worldSize, String backend, String source, String jobId,
                              String processGroups) implements Serializable {
    public boolean rankKnown() {
        return rank >= 0;
    }

    public boolean worldSizeKnown() {
        return worldSize > 0;
    }
}
