package dlproflint.facts;

/**
 * Mean and population standard deviation of a series of durations, accumulated one value at a time (Welford's
 * update, so a long run of nanosecond values keeps its precision). The one recipe behind every iteration summary
 * (DLProf's "Iteration Time Standard Deviation" is the population form), the steady window and the regularity of
 * a step candidate's period.
 */
public final class MeanSd {
    private long n;
    private double mean;
    private double m2;

    public MeanSd add(double value) {
        n++;
        double delta = value - mean;
        mean += delta / n;
        m2 += delta * (value - mean);
        return this;
    }

    public long count() {
        return n;
    }

    /** 0 when nothing was added. */
    public double mean() {
        return mean;
    }

    /** Population standard deviation (divided by n, as DLProf reports it); 0 with fewer than two values. */
    public double sd() {
        return n < 2 ? 0 : Math.sqrt(Math.max(0, m2 / n));
    }

    /** Coefficient of variation in percent; {@code whenMeanNotPositive} when the mean is 0 or less. */
    public double cvPct(double whenMeanNotPositive) {
        return mean <= 0 ? whenMeanNotPositive : 100.0 * sd() / mean;
    }
}
