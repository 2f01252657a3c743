package dlproflint.facts;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where in the model's code a profile's work was issued, when the profile recorded call stacks. Ops carry their own
 * stack ({@link OpFact#stack()}); this part holds the call sites that are not an op's: the training loop and the
 * CUDA API calls. Stacks are innermost first and start at the user frame ({@link StackFrames#keepInnermostFirst}).
 *
 * @param source what the stacks came from, in a few words ({@code "Kineto python_function events"},
 *               {@code "nsys CUDA backtraces"}, ...), or null when the profile holds no call stacks
 * @param hint   how to record stacks the next time, when the profile has none or only native frames
 *               (e.g. {@code "record with torch.profiler.profile(with_stack=True)"}), or null
 * @param step   the training loop: the stack around the iteration boundaries; empty when unknown
 * @param apis   CUDA API name (as in {@link ApiStat#api()}, {@code cudaMemcpyAsync}) → its most frequent call site
 */
public record CallSites(String source, String hint, List<StackFrame> step, Map<String, List<StackFrame>> apis) {
    public CallSites {
        step = step == null ? List.of() : List.copyOf(step);
        apis = apis == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(apis));
    }

    /** A profile without call stacks, with how to record them. */
    public static CallSites none(String hint) {
        return new CallSites(null, hint, List.of(), Map.of());
    }

    /** The profile holds call stacks (of any kind). */
    public boolean recorded() {
        return source != null;
    }

    /** The stack of an API's call site, or an empty list. */
    public List<StackFrame> api(String name) {
        List<StackFrame> s = name == null ? null : apis.get(name);
        return s == null ? List.of() : s;
    }
}
