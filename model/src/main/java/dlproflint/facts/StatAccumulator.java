package dlproflint.facts;

/** Mutable builder for {@link Stat}: constant memory however many values are added. */
public final class StatAccumulator {
    private long count;
    private long total;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;

    public void add(long value) {
        count++;
        total += value;
        if (value < min) min = value;
        if (value > max) max = value;
    }

    public void add(Stat s) {
        if (s.count() == 0) return;
        count += s.count();
        total += s.total();
        min = Math.min(min, s.min());
        max = Math.max(max, s.max());
    }

    public long count() {
        return count;
    }

    public long total() {
        return total;
    }

    public Stat toStat() {
        return count == 0 ? Stat.EMPTY : new Stat(count, total, min, max);
    }
}
