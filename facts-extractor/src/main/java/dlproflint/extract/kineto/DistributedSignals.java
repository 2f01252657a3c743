package dlproflint.extract.kineto;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.facts.DistributedSetup;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Counts what shows how a job parallelises: {@code DataParallel.forward} and {@code DistributedDataParallel.forward}
 * (record_function scopes PyTorch opens in those wrappers), the ops DataParallel runs to replicate the model
 * every step, and {@code nccl:*} / {@code gloo:*} collective annotations. The TensorBoard plugin's DDP advice
 * keys on the same names.
 */
final class DistributedSignals {
    /** The autograd functions of {@code torch.nn.parallel} (replicate, scatter, gather) and their backward nodes. */
    private static final Pattern REPLICATION = Pattern.compile(
            "(autograd::engine::evaluate_function: )?(Broadcast|ReduceAddCoalesced|Scatter|Gather)(Backward\\d*)?");

    private long ddpForwards;
    private long dataParallelForwards;
    private long replicationOps;
    private long replicationNs;
    private long replicationEnd = Long.MIN_VALUE;
    private long ncclOps;
    private long glooOps;
    private long glooNs;
    private long glooEnd = Long.MIN_VALUE;

    /**
     * A CPU op or user annotation. Durations count outermost calls only (a backward node and the op of the same
     * name inside it, or nested gloo scopes, once): calls come in file order, which Kineto writes per thread in
     * start order, so a call starting before the previous one's end is nested in it.
     */
    void observe(String name, long startNs, long endNs) {
        if (name.isEmpty()) return;
        char c = name.charAt(0);
        if (c == 'n' && name.startsWith("nccl:")) {
            ncclOps++;
        } else if (c == 'g' && name.startsWith("gloo:")) {
            glooOps++;
            if (startNs >= glooEnd) {
                glooNs += endNs - startNs;
                glooEnd = endNs;
            }
        } else if (c == 'D' && name.startsWith("DistributedDataParallel.forward")) {
            ddpForwards++;
        } else if (c == 'D' && name.startsWith("DataParallel.forward")) {
            dataParallelForwards++;
        } else if ((c == 'B' || c == 'R' || c == 'S' || c == 'G' || c == 'a') && REPLICATION.matcher(name).matches()) {
            replicationOps++;
            if (startNs >= replicationEnd) {
                replicationNs += endNs - startNs;
                replicationEnd = endNs;
            }
        }
    }

    /** The fact, or null when nothing in the trace is about distribution. */
    DistributedSetup fact(JsonNode distributedInfo, int gpusWithKernels) {
        String recorded = distributedInfo == null ? null : text(distributedInfo.path("backend"));
        String backend = recorded;
        if (backend == null && (ncclOps > 0) != (glooOps > 0)) backend = ncclOps > 0 ? "nccl" : "gloo";
        boolean any = backend != null || ddpForwards > 0 || dataParallelForwards > 0 || replicationOps > 0
                || ncclOps > 0 || glooOps > 0;
        if (!any) return null;
        return new DistributedSetup(backend, recorded != null, ddpForwards, dataParallelForwards, replicationOps,
                replicationNs, ncclOps, glooOps, glooNs, gpusWithKernels);
    }

    private static String text(JsonNode n) {
        if (n == null || !n.isTextual() || n.asText().isBlank()) return null;
        return n.asText().trim().toLowerCase(Locale.ROOT);
    }
}
