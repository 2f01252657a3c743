package dlproflint.reporters.dlprof;

import dlproflint.facts.OpFact;
import dlproflint.facts.Stat;

import java.util.List;

/**
 * Sums of the four op statistics over a set of ops (an op type, a module sub-tree): totals add up,
 * minimum and maximum are taken over the ops' own minimum and maximum. An op without GPU work has
 * the statistic 0/0/0/0, as in DLProf, so it pulls the minimum to 0.
 */
public final class OpStats {
    private final long[] total = new long[OpMetric.values().length];
    private final long[] min = new long[OpMetric.values().length];
    private final long[] max = new long[OpMetric.values().length];
    private long ops;
    private long calls;
    private long tcEligible;
    private long usingTc;

    public OpStats() {
        java.util.Arrays.fill(min, Long.MAX_VALUE);
        java.util.Arrays.fill(max, Long.MIN_VALUE);
    }

    public void add(OpFact op) {
        ops++;
        calls += op.calls();
        if (op.tcEligible()) tcEligible++;
        if (op.usesTc()) usingTc++;
        for (OpMetric m : OpMetric.values()) {
            Stat s = m.of(op);
            int i = m.ordinal();
            total[i] += s.total();
            min[i] = Math.min(min[i], s.min());
            max[i] = Math.max(max[i], s.max());
        }
    }

    public long ops() {
        return ops;
    }

    public long calls() {
        return calls;
    }

    long tcEligible() {
        return tcEligible;
    }

    long usingTc() {
        return usingTc;
    }

    public long total(OpMetric m) {
        return total[m.ordinal()];
    }

    /** Smallest of the ops' minimum (0 when there are no ops). */
    public long min(OpMetric m) {
        return ops == 0 ? 0L : min[m.ordinal()];
    }

    /** Largest of the ops' maximum (0 when there are no ops). */
    public long max(OpMetric m) {
        return ops == 0 ? 0L : max[m.ordinal()];
    }

    /** Total, average (total / divisor), min, max for each metric, in column order. */
    void appendInstanceStats(List<Object> row, long divisor) {
        for (OpMetric m : OpMetric.values()) {
            int i = m.ordinal();
            row.add(total[i]);
            row.add(Decimals.ratio(total[i], divisor));
            row.add(min(m));
            row.add(max(m));
        }
    }

    /** One op's statistics, average per call (DLProf: "average of all instances of the node"). */
    static void appendOpStats(List<Object> row, OpFact op) {
        for (OpMetric m : OpMetric.values()) {
            Stat s = m.of(op);
            row.add(s.total());
            row.add(Decimals.ratio(s.total(), op.calls() > 0 ? op.calls() : s.count()));
            row.add(s.min());
            row.add(s.max());
        }
    }
}
