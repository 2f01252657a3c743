package dlproflint.cli.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What the bootstrap records and how: the configuration file it reads ({@code dlprof_lint_bootstrap.py CONFIG}).
 *
 * @param nsys    capture through {@code nsys profile} (cudaProfilerApi range, emit_nvtx) instead of torch.profiler
 * @param warmup  steps run before the recording starts (the last of them with the profiler on, discarded)
 * @param steps   steps recorded
 * @param stepFn  {@code [module:]qualified.name} of the function whose return ends a step, or null for
 *                {@code optimizer.step()}
 * @param capture what torch.profiler records besides ops: {@link #DETAILS}
 * @param trace   where the torch.profiler trace goes (the bootstrap writes it under a temporary name and renames it)
 */
public record CaptureSettings(boolean nsys, int warmup, int steps, String stepFn, Set<String> capture, Path trace) {
    /** The details torch.profiler can record: input shapes, Python call stacks, memory events, nn.Module scopes. */
    public static final List<String> DETAILS = List.of("shapes", "stack", "memory", "modules");

    public CaptureSettings {
        capture = Set.copyOf(capture);
    }

    /** A step function names a function: {@code train_step}, {@code Trainer.step}, {@code pkg.loop:train_step}. */
    public static boolean validStepFunction(String spec) {
        return spec.matches("([A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*:)?[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");
    }

    /** The bootstrap's configuration, JSON. */
    String json(Path status) {
        ObjectMapper m = new ObjectMapper();
        ObjectNode n = m.createObjectNode();
        n.put("mode", nsys ? "nsys" : "torch");
        n.put("warmup", warmup);
        n.put("steps", steps);
        if (stepFn != null) n.put("step_fn", stepFn);
        var details = n.putArray("capture");
        for (String d : DETAILS) if (capture.contains(d)) details.add(d);
        if (trace != null) n.put("trace", trace.toString());
        n.put("status", status.toString());
        return n.toString();
    }

    /** How the steps are marked, for messages: {@code optimizer.step()} or {@code train_step()}. */
    public String stepLabel() {
        return stepFn == null ? "optimizer.step()" : stepFn + "()";
    }
}
