package dlproflint.facts;

/**
 * One op (matched by name across the two profiles) compared by {@code dlprof-lint compare}: its GPU time per step.
 * With per-step samples on both sides the change is also judged against their spread.
 *
 * @param key         the name the ops were matched by
 * @param baseId      the op's id in the base profile, or null when it is new
 * @param headId      the op's id in the head profile, or null when it is gone
 * @param type        the op type
 * @param baseNs      base GPU time per step (per run when the profiles have no steps)
 * @param headNs      head GPU time per step
 * @param baseStepNs  the base's step (or run) duration, against which the change is weighed
 * @param samples     per-step samples on the smaller side (0: compared as per-step means)
 * @param spread      pooled robust spread of the per-step samples (ns), 0 without samples
 */
public record OpDelta(String key, String baseId, String headId, String type, double baseNs, double headNs,
                      double baseStepNs, int samples, double spread) implements PerStepGrowth {
    /**
     * GPU work outside every range ({@code unassociated_<kernel>}): one kernel's time, which {@link KernelDelta}
     * already judges.
     */
    public boolean unassociated() {
        return key.startsWith("unassociated_");
    }

    /** Growth in units of the run-to-run spread (infinite without a spread). */
    public double growthSpreads() {
        if (spread <= 0) return growthNs() > 0 ? Double.POSITIVE_INFINITY : 0;
        return growthNs() / spread;
    }
}
