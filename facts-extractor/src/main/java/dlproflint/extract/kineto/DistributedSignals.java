package dlproflint.extract.kineto;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.extract.common.IntervalUnion;
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
    /** host time of the replication ops and gloo collectives, nested or overlapping calls counted once */
    private final IntervalUnion replication = new IntervalUnion();
    private long ncclOps;
    private long glooOps;
    private final IntervalUnion gloo = new IntervalUnion();

    /** A CPU op or user annotation. */
    void observe(String name, long startNs, long endNs) {
        if (name.isEmpty()) return;
        char c = name.charAt(0);
        if (c == 'n' && name.startsWith("nccl:")) {
            ncclOps++;
        } else if (c == 'g' && name.startsWith("gloo:")) {
            glooOps++;
            gloo.add(startNs, endNs);
        } else if (c == 'D' && name.startsWith("DistributedDataParallel.forward")) {
            ddpForwards++;
        } else if (c == 'D' && name.startsWith("DataParallel.forward")) {
            dataParallelForwards++;
        } else if ((c == 'B' || c == 'R' || c == 'S' || c == 'G' || c == 'a') && REPLICATION.matcher(name).matches()) {
            replicationOps++;
            replication.add(startNs, endNs);
        }
    }

    /** {@code nccl:*} calls seen: the process's collectives ran as NCCL kernels. */
    long ncclCalls() {
        return ncclOps;
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
                replication.covered(), ncclOps, glooOps, gloo.covered(), gpusWithKernels);
    }

    private static String text(JsonNode n) {
        if (n == null || !n.isTextual() || n.asText().isBlank()) return null;
        return n.asText().trim().toLowerCase(Locale.ROOT);
    }
}
