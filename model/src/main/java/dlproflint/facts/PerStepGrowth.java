package dlproflint.facts;

/** GPU time per step of something in a base and a head run ({@link OpDelta}, {@link KernelDelta}), and its growth. */
public interface PerStepGrowth {
    /** base GPU time per step (per run when the profiles have no steps); 0 when absent from the base */
    double baseNs();

    /** head GPU time per step; 0 when absent from the head */
    double headNs();

    /** the base's step (or run) duration, against which the growth is weighed */
    double baseStepNs();

    default double growthNs() {
        return headNs() - baseNs();
    }

    /** Growth relative to the base time, in percent (infinite for something new). */
    default double growthPct() {
        if (baseNs() <= 0) return headNs() > 0 ? Double.POSITIVE_INFINITY : 0;
        return 100.0 * growthNs() / baseNs();
    }

    /** Growth as a share of the base step, in percent. */
    default double growthStepPct() {
        return baseStepNs() <= 0 ? 0 : 100.0 * growthNs() / baseStepNs();
    }

    /** Head over base (infinite for something new). */
    default double ratio() {
        return baseNs() <= 0 ? (headNs() > 0 ? Double.POSITIVE_INFINITY : 1) : headNs() / baseNs();
    }
}
