package dlproflint.facts;

/**
 * How a PyTorch job parallelises over GPUs, as far as the profile shows it: the process group's backend
 * and the data-parallel wrappers seen. Absent (null in {@link ProfileFacts}) when the profile shows no
 * sign of either.
 *
 * @param backend              the process group backend ({@code nccl}, {@code gloo}, {@code mpi}, ...) from the
 *                             trace's {@code distributedInfo}, else inferred from {@code nccl:*} / {@code gloo:*}
 *                             op names; null when unknown
 * @param backendRecorded      true when {@code backend} was recorded by the profiler, false when inferred
 * @param ddpForwards          {@code DistributedDataParallel.forward} calls
 * @param dataParallelForwards {@code DataParallel.forward} calls (single-process, multi-thread DataParallel)
 * @param replicationOps       calls of the ops DataParallel runs every step: broadcast of the parameters to the
 *                             replicas ({@code Broadcast}, {@code broadcast_coalesced}), scatter of the inputs and
 *                             gather of the outputs ({@code Scatter}, {@code Gather}, their backward nodes)
 * @param replicationNs        host time in those ops (outermost calls)
 * @param ncclOps              {@code nccl:*} annotations (collectives issued through NCCL)
 * @param glooOps              {@code gloo:*} annotations (collectives issued through Gloo)
 * @param glooNs               host time in the {@code gloo:*} annotations (Gloo runs collectives on the CPU:
 *                             GPU tensors are copied to the host, reduced there and copied back)
 * @param gpusWithKernels      GPUs on which this process ran kernels
 */
public record DistributedSetup(String backend, boolean backendRecorded, long ddpForwards, long dataParallelForwards,
                               long replicationOps, long replicationNs, long ncclOps, long glooOps, long glooNs,
                               int gpusWithKernels) {
}
