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
 * @param samples     itemised steps on the smaller side (readers keep per-iteration kernel rows), 0 when the
 *                    profiles were not split into steps
 * @param spread      the op's run-to-run noise: pooled robust spread (1.4826 × MAD) of its GPU time in each itemised
 *                    step (ns), 0 without samples. The growth of the mean is weighed against it, not against the
 *                    mean's standard error: conservative, so ordinary noise stays below the tolerance
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
