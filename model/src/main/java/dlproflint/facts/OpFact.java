package dlproflint.facts;

import java.util.List;

/**
 * One op aggregated over its calls in the aggregation range (DLProf's "detailed" row).
 * Ops come from NVTX ranges (emit_nvtx {@code aten::} ranges, DLProf plugin markers, user ranges),
 * from Kineto {@code cpu_op} events, or from a DLProf database; GPU work outside any range becomes
 * an {@code unassociated_<name>} op of type {@code cuda}.
 *
 * @param id          stable id (DLProf style, e.g. {@code CONV2D_1})
 * @param name        full name / module path
 * @param type        op type, lower case (e.g. {@code conv2d}, {@code linear}, {@code cuda})
 * @param cpuTime     duration of the op's ranges on the CPU
 * @param gpuTime     sum of the durations of the GPU work launched inside the op
 * @param cpuOverhead time from the op's start to its first GPU work start (DLProf definition)
 * @param gpuIdle     GPU idle time inside the op's GPU span (DLProf definition)
 * @param tcEligible  the op type can use tensor cores
 * @param usesTc      at least one of its kernels is a tensor-core kernel
 * @param tcGpuTimeNs GPU time of its tensor-core kernels
 * @param kernelCalls number of kernels launched
 * @param dataType    dominant input data type (e.g. {@code float32}), or null
 * @param inputShapes input shapes as DLProf prints them, or null
 * @param stack       Python stack of the op's (most frequent) call site, innermost first: from the user frame on,
 *                    at most {@link StackFrames#MAX_FRAMES} frames, where a reader picks the site from many calls
 *                    ({@link StackFrames#keepInnermostFirst}); whole where the profile records one stack per op
 *                    (DLProf, {@link StackFrames#innermostFirst}); empty when not recorded
 */
public record OpFact(String id, String name, String type, Direction direction, long calls,
                     Stat cpuTime, Stat gpuTime, Stat cpuOverhead, Stat gpuIdle,
                     boolean tcEligible, boolean usesTc, long tcGpuTimeNs, long kernelCalls,
                     String dataType, String inputShapes, List<StackFrame> stack) {
    public OpFact {
        stack = stack == null ? List.of() : List.copyOf(stack);
    }

    /** GPU/CUDA work outside every range; DLProf names such ops {@code unassociated_<name>} (their id follows the type). */
    public boolean unassociated() {
        return name != null && name.startsWith("unassociated_") || id != null && id.startsWith("unassociated_");
    }

    /** eligible for tensor cores but ran none of its GPU time on them */
    public boolean tcEligibleNotUsing() {
        return tcEligible && !usesTc;
    }

    /** The same op with another call stack (readers that find stacks after the ops). */
    public OpFact withStack(List<StackFrame> frames) {
        return new OpFact(id, name, type, direction, calls, cpuTime, gpuTime, cpuOverhead, gpuIdle, tcEligible, usesTc,
                tcGpuTimeNs, kernelCalls, dataType, inputShapes, frames);
    }

    /** The model's own line that issued the op (its innermost user frame), or null. */
    public StackFrame location() {
        return StackFrames.firstUser(stack);
    }
}
