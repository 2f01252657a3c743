package dlproflint.extract.common;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a reader saw while streaming that can tell where training steps begin and end: every named CPU-side
 * range or op (NVTX ranges, Kineto {@code cpu_op} / {@code user_annotation} events) with its start, end and
 * thread, GPU-side copies of step markers, and the instances of the key nodes. {@link IterationDiscovery}
 * decides from it; the readers do not.
 *
 * <p>Memory stays bounded: per distinct name a count, and the instances themselves only while the name is
 * rare enough to be a step boundary. Names the discovery always needs (step markers, DataLoader and
 * optimizer calls, step-like names, key-node matches) keep every instance; any other name keeps at most
 * {@link #cap} instances, and the cap halves whenever all stored instances together exceed
 * {@link #BUDGET} (a name with more instances than the cap runs too often to mark steps in this profile).
 */
public final class IterationEvidence {
    /** Instances stored over all capped names (three longs each: about 24 MB). */
    static final int BUDGET = 1 << 20;
    static final int FIRST_CAP = 1 << 16;

    /** One name's instances. */
    static final class Family {
        final String name;
        final Kind kind;
        final boolean userKey;
        final boolean defaultKey;
        long count;
        StepInstances instances = new StepInstances();

        Family(String name, Kind kind, boolean userKey, boolean defaultKey) {
            this.name = name;
            this.kind = kind;
            this.userKey = userKey;
            this.defaultKey = defaultKey;
        }

        boolean capped() {
            return kind == Kind.OTHER && !userKey && !defaultKey;
        }

        /** Dropped for running too often: the count is known, the instances are not. */
        boolean dropped() {
            return instances == null;
        }
    }

    enum Kind { PROFILER_STEP, DATALOADER_NEXT, OPTIMIZER_STEP, STEP_HINT, OTHER }

    private final String userKey;
    private final String defaultKey;
    private final Map<String, Family> families = new HashMap<>();
    final StepInstances userKeyHits = new StepInstances();
    final StepInstances defaultKeyHits = new StepInstances();
    /** GPU-side copies of {@code ProfilerStep#N} (Kineto {@code gpu_user_annotation}), by name. */
    final Map<String, StepInstances> gpuSteps = new HashMap<>();
    private int cap = FIRST_CAP;
    private long stored;
    long firstStart = Long.MAX_VALUE;
    long lastEnd = Long.MIN_VALUE;
    long ranges;

    /**
     * @param userKey    the user's key node (--key-node), or null
     * @param defaultKey the framework's default key node DLProf used ({@code global_step} for TensorFlow), or null
     */
    public IterationEvidence(String userKey, String defaultKey) {
        this.userKey = userKey == null || userKey.isBlank() ? null : userKey;
        this.defaultKey = defaultKey == null || defaultKey.isBlank() ? null : defaultKey;
    }

    /** Whether any named range or op was seen (so DataLoader calls would have been seen too). */
    public boolean hasRanges() {
        return ranges > 0;
    }

    public String userKey() {
        return userKey;
    }

    public String defaultKey() {
        return defaultKey;
    }

    /**
     * Whether a key node could name a range's text that begins with {@code name}'s first character
     * ({@link StepNames#mayMatch}): where not, a reader need not spell the text to give it as the alias.
     */
    public boolean mayName(String name) {
        return StepNames.mayMatch(userKey, name) || StepNames.mayMatch(defaultKey, name);
    }

    /**
     * One named CPU-side range or op.
     *
     * @param name   the name the reader gives the op ({@code aten::to}, {@code ProfilerStep#3}, a DLProf op path)
     * @param alias  another spelling a key node may use (the raw NVTX text), or null
     * @param thread any id that tells threads apart
     */
    public void range(String name, String alias, long start, long end, long thread) {
        if (name == null || name.isEmpty()) return;
        ranges++;
        if (start < firstStart) firstStart = start;
        if (end > lastEnd) lastEnd = Math.max(start, end);
        Family f = families.get(name);
        if (f == null) {
            f = new Family(name, kindOf(name), StepNames.keyMatches(userKey, name), StepNames.keyMatches(defaultKey, name));
            families.put(name, f);
        }
        f.count++;
        boolean user = f.userKey || alias != null && userKey != null && !alias.equals(name) && StepNames.keyMatches(userKey, alias);
        if (user) userKeyHits.add(start, end, thread);
        if (f.defaultKey || alias != null && defaultKey != null && !alias.equals(name) && StepNames.keyMatches(defaultKey, alias)) {
            defaultKeyHits.add(start, end, thread);
        }
        if (f.dropped()) return;
        f.instances.add(start, end, thread);
        if (f.capped()) {
            stored++;
            if (f.instances.size() > cap) drop(f);
            if (stored > BUDGET) tighten();
        }
    }

    /** A GPU-side copy of a CPU-side step marker (Kineto draws {@code ProfilerStep#N} on the GPU row too). */
    public void gpuRange(String name, long start, long end) {
        if (!StepNames.profilerStep(name)) return;
        gpuSteps.computeIfAbsent(name, k -> new StepInstances()).add(start, end, 0);
    }

    private static Kind kindOf(String name) {
        if (StepNames.profilerStep(name)) return Kind.PROFILER_STEP;
        if (StepNames.dataLoaderNext(name)) return Kind.DATALOADER_NEXT;
        if (StepNames.optimizerStep(name)) return Kind.OPTIMIZER_STEP;
        if (StepNames.namedStep(name)) return Kind.STEP_HINT;
        return Kind.OTHER;
    }

    private void drop(Family f) {
        stored -= f.instances.size();
        f.instances = null;
    }

    /** Halves the cap until the stored instances fit the budget again (the most frequent names go first). */
    private void tighten() {
        while (stored > BUDGET && cap > 2) {
            cap /= 2;
            for (Family f : families.values()) {
                if (f.capped() && !f.dropped() && f.instances.size() > cap) drop(f);
            }
        }
    }

    /** Names seen, in a deterministic order (by name). */
    List<Family> families() {
        List<Family> out = new ArrayList<>(families.values());
        out.sort((a, b) -> a.name.compareTo(b.name));
        return out;
    }

    /** The most instances a capped name keeps now. */
    int cap() {
        return cap;
    }

    long firstStart() {
        return firstStart;
    }

    long lastEnd() {
        return lastEnd;
    }

    @Override
    public String toString() {
        return "IterationEvidence" + Arrays.asList(families.size() + " names", ranges + " ranges");
    }
}
