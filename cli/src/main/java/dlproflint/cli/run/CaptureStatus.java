package dlproflint.cli.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the bootstrap says happened (its status file), read after the training command exits.
 *
 * @param state    {@code captured}, {@code partial} (the script ended while recording), {@code no-steps},
 *                 {@code too-few-steps} (it ended during the warm-up) or {@code error}
 * @param steps    steps the script completed
 * @param first    first recorded step (1-based), 0 when none
 * @param last     last recorded step, 0 when none
 * @param torch    the PyTorch version, or null when the interpreter could not import it
 * @param kineto   whether that PyTorch has Kineto (GPU activity, shapes, stacks, memory in the trace)
 * @param hook     what marked the steps ({@code optimizer.step() of AdamW})
 * @param message  why nothing was captured, when the bootstrap knows
 */
public record CaptureStatus(String state, int steps, int first, int last, String torch, boolean kineto, String hook,
                            String message) {

    public boolean captured() {
        return "captured".equals(state) || "partial".equals(state);
    }

    /** The status file, or null when the bootstrap never wrote one (the interpreter failed before it ran). */
    static CaptureStatus read(Path file) {
        if (!Files.isRegularFile(file)) return null;
        try {
            JsonNode n = new ObjectMapper().readTree(file.toFile());
            JsonNode recorded = n.path("recorded");
            int first = recorded.isArray() ? recorded.path(0).asInt() : 0;
            int last = recorded.isArray() ? recorded.path(1).asInt() : 0;
            return new CaptureStatus(n.path("state").asText("error"), n.path("steps").asInt(), first, last,
                    text(n, "torch"), n.path("kineto").asBoolean(false), text(n, "hook"), text(n, "message"));
        } catch (IOException e) {
            return null;
        }
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
