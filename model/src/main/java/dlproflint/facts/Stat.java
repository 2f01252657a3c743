package dlproflint.facts;

/**
 * total/avg/min/max of a duration (ns) over {@code count} observations, as DLProf's reports show them.
 * Built incrementally by {@link StatAccumulator}.
 */
public record Stat(long count, long total, long min, long max) {
    public static final Stat EMPTY = new Stat(0, 0, 0, 0);

    public double avg() {
        return count == 0 ? 0.0 : (double) total / count;
    }

    public static Stat of(long value) {
        return new Stat(1, value, value, value);
    }

    public Stat plus(Stat o) {
        if (o.count == 0) return this;
        if (count == 0) return o;
        return new Stat(count + o.count, total + o.total, Math.min(min, o.min), Math.max(max, o.max));
    }
}
