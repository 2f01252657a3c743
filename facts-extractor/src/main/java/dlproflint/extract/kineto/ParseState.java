package dlproflint.extract.kineto;

import java.util.HashSet;
import java.util.Set;

/**
 * What one parsing thread carries from event to event: its {@link TextIntern}, and the op names whose input
 * types and input dims have been kept already. The aggregation keeps those details from an op's first event
 * only ({@link KinetoAggregator#keepsOpDetails}), so for every later event of the op the parser leaves them
 * undecoded. With several parsing threads each keeps the first event of each op in its own chunk, so the
 * first in the file is still there to be kept. (Call stacks are decoded on every event: each is a vote for
 * the op's call site.)
 */
final class ParseState {
    private static final int MAX_NAMES = 100_000;
    final TextIntern names = new TextIntern();
    /**
     * Call stacks: a few dozen distinct ones, each a kilobyte or so, on tens of thousands of op events (over a
     * third of a trace recorded with stacks); each vote for a call site then hashes and compares the same String.
     */
    final TextIntern stacks = new TextIntern(1 << 16, 4096, 16L << 20);
    private final Set<String> withTypes = new HashSet<>();
    private final Set<String> withDims = new HashSet<>();

    boolean typesKept(String name) {
        return name != null && withTypes.contains(name);
    }

    boolean dimsKept(String name) {
        return name != null && withDims.contains(name);
    }

    /** After an event is read: remembers which of its op's details the aggregation now has. */
    void read(TraceEvent e) {
        if (e.inputType == null && e.inputDims == null) return;
        if (!KinetoAggregator.keepsOpDetails(e) || withTypes.size() + withDims.size() > MAX_NAMES) return;
        String name = e.name == null ? "" : e.name;
        if (e.inputType != null) withTypes.add(name);
        if (e.inputDims != null) withDims.add(name);
    }
}
