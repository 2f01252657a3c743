package dlproflint.packs.dlprof;

import dlproflint.findings.Units;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.StepTotals;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The per-step clause of a finding, the same for every rule and every way iterations were found
 * (markers, a key node, or inferred): {@code ; per step 46.2 ms in DataLoader calls of 160.0 ms (28.9%;
 * 6 steps, inferred from DataLoader calls ...)}. Empty when the profile was not split into two or more
 * steps or the reader could not measure that part.
 */
public final class StepText {
    /** Which part of the steps a clause is about. */
    public enum Part { DATA_LOADER, SYNC, GPU_IDLE }

    private StepText() {
    }

    /** @param iterations the aggregated {@code Iteration} facts (other objects are ignored) */
    public static String perStep(IterationSummary s, Collection<?> iterations, Part part, String what) {
        StepTotals t = StepTotals.of(iterations);
        long total = total(t, part);
        if (!s.keyNodeFound() || !t.perStepMeaningful() || total < 0) return "";
        return "; per step " + Units.duration(t.perStep(total)) + " " + what + " of " + Units.duration(t.perStep(t.durationNs()))
                + " (" + Units.pct(t.pctOfSteps(total)) + "; " + t.steps() + " steps, " + s.howFound() + ")";
    }

    /**
     * {@code evidence} plus {@code key} (the per-step mean of that part in ns) when {@link #perStep} says it, and
     * {@code iterationMethod}: no -1 sentinel for what was not measured.
     */
    public static Map<String, Object> evidence(Map<String, Object> evidence, IterationSummary s, Collection<?> iterations,
                                               Part part, String key) {
        Map<String, Object> out = new LinkedHashMap<>(evidence);
        StepTotals t = StepTotals.of(iterations);
        long total = total(t, part);
        if (s.keyNodeFound() && t.perStepMeaningful() && total >= 0) out.put(key, t.perStep(total));
        out.put("iterationMethod", s.method());
        return out;
    }

    private static long total(StepTotals t, Part part) {
        return switch (part) {
            case DATA_LOADER -> t.dataLoaderNs();
            case SYNC -> t.syncNs();
            case GPU_IDLE -> t.gpuIdleNs();
        };
    }
}
