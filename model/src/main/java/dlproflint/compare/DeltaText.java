package dlproflint.compare;

import dlproflint.facts.MetricDelta;
import dlproflint.findings.Units;

import java.util.Locale;

/** How a compared metric is written in findings and reports, decided once: its values and its change. */
public final class DeltaText {
    private DeltaText() {
    }

    /** A value in the metric's unit: a duration or a share. */
    public static String value(MetricDelta d, double v) {
        return "%".equals(d.unit()) ? Units.pct(v) : Units.duration(v);
    }

    /** What a report shows for one side: the per-step center where steps were compared, else the profile's value. */
    public static String side(MetricDelta d, Double point, double center) {
        if (point == null) return "absent";
        return value(d, d.samples() > 0 ? center : point);
    }

    /** Head against base: {@code +16.2%} of the base for durations, {@code -18.6 points} for shares. */
    public static String relative(MetricDelta d) {
        if ("%".equals(d.unit())) return String.format(Locale.ROOT, "%+.1f points", d.shift());
        return String.format(Locale.ROOT, "%+.1f%%", 100.0 * d.shift() / Math.max(Math.abs(d.baseCenter()), 1e-9));
    }

    /** {@code 5.0×} the run-to-run spread, or null when the metric was not compared on per-step samples. */
    public static String spreads(MetricDelta d) {
        if (d.samples() == 0 || d.spread() <= 0) return null;
        return String.format(Locale.ROOT, "%.1f×", Math.abs(d.shift()) / d.spread());
    }

    /** What the spread was measured on, for a table: {@code median of steps}, {@code median of 3 vs 3 runs}. */
    public static String noise(MetricDelta d) {
        return d.betweenRuns() ? "median of " + d.baseRuns() + " vs " + d.headRuns() + " runs" : "median of steps";
    }

    /** {@code worse}, {@code better} or {@code same}; {@code not compared} when a profile lacks the metric. */
    public static String verdict(MetricDelta d) {
        if (!d.present()) return "not compared";
        return d.worseBy() > 0 ? "worse" : d.worseBy() < 0 ? "better" : "same";
    }
}
