package dlproflint.facts;

/**
 * Percentages as the tool prints them: shares, 0 to 100 by construction. Every percentage in the facts,
 * the rules and the reports is a part of a whole that contains it (kernel time inside a window,
 * intervals merged so overlap counts once, a subset of launches); {@link #of} computes it and keeps
 * rounding and inconsistent input (a negative part, a part a damaged profile makes larger than its
 * whole) from taking it outside 0-100. A value stored by another tool (DLProf's database) goes through
 * {@link #bounded}. The coefficient of variation is a ratio, not a share, and is kept apart
 * ({@link IterationSummary#variationPct()}).
 */
public final class Percent {
    private Percent() {
    }

    /** 100 × part / whole for a part of the whole; 0 when the whole is empty. */
    public static double of(double part, double whole) {
        if (!(whole > 0) || !(part > 0)) return 0;
        return bounded(100.0 * part / whole);
    }

    /**
     * A coefficient of variation (standard deviation / mean, in percent) as printed: {@code 12.5%} while the
     * spread is below the mean, {@code 1.7x the mean} beyond it, so no printed percentage passes 100.
     */
    public static String variationText(double cvPct) {
        if (!(cvPct > 0)) return "0.0%";
        if (cvPct <= 100.0) return String.format(java.util.Locale.ROOT, "%.1f%%", cvPct);
        return String.format(java.util.Locale.ROOT, "%.1fx the mean", cvPct / 100.0);
    }

    /** A share stored or derived elsewhere: NaN becomes 0, the rest is held to 0-100. */
    public static double bounded(double pct) {
        if (Double.isNaN(pct) || pct <= 0) return 0;
        return Math.min(100.0, pct);
    }
}
