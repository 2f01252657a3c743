package dlproflint.engine.testing;

import dlproflint.findings.Impact;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code impact:} of an {@code expect:} entry: {@code impact: none} (the finding carries no impact), or a
 * mapping of what it must be, e.g. {@code impact: {basis: step, sharePct: 18.0, modelContains: "host-blocked"}}.
 * Shares are percentages compared within {@value #PCT_TOLERANCE} points, so one decimal is enough; durations
 * ({@code lostNs}, {@code savingNs}, {@code periodNs}) within {@value #NS_RELATIVE_TOLERANCE} relative.
 */
public record ImpactExpectation(boolean none, String basis, Double sharePct, Double savingPct, Double lostNs,
                                Double savingNs, Double periodNs, String modelContains) {
    public static final double PCT_TOLERANCE = 0.05;
    public static final double NS_RELATIVE_TOLERANCE = 1e-3;
    static final List<String> KEYS = List.of("basis", "sharePct", "savingPct", "lostNs", "savingNs", "periodNs", "modelContains");

    public static final ImpactExpectation NONE = new ImpactExpectation(true, null, null, null, null, null, null, null);

    /** Why {@code actual} does not match, or an empty list. */
    List<String> mismatches(Impact actual) {
        List<String> out = new ArrayList<>();
        if (none) {
            if (actual != null) out.add("impact is " + text(actual) + ", expected none");
            return out;
        }
        if (actual == null) {
            out.add("finding has no impact");
            return out;
        }
        if (basis != null && !basis.equalsIgnoreCase(actual.basis().name())) out.add("impact basis is " + label(actual));
        pct(out, "sharePct", sharePct, actual.sharePct());
        pct(out, "savingPct", savingPct, actual.savingPct());
        ns(out, "lostNs", lostNs, actual.lostNs());
        ns(out, "savingNs", savingNs, actual.savingNs());
        ns(out, "periodNs", periodNs, actual.periodNs());
        if (modelContains != null && !actual.model().contains(modelContains)) out.add("impact model is \"" + actual.model() + "\"");
        return out;
    }

    private static void pct(List<String> out, String key, Double expected, double actual) {
        if (expected != null && Math.abs(expected - actual) > PCT_TOLERANCE) out.add("impact " + key + " is " + round(actual));
    }

    private static void ns(List<String> out, String key, Double expected, double actual) {
        if (expected != null && Math.abs(expected - actual) > NS_RELATIVE_TOLERANCE * Math.max(Math.abs(expected), Math.abs(actual))) {
            out.add("impact " + key + " is " + Math.round(actual));
        }
    }

    private static String label(Impact i) {
        return i.basis().name().toLowerCase(Locale.ROOT);
    }

    private static String round(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** The impact in the {@code expect:} syntax, for failure messages that can be pasted into a case. */
    static String text(Impact i) {
        return "{basis: " + label(i) + ", sharePct: " + round(i.sharePct()) + ", savingPct: " + round(i.savingPct())
                + ", lostNs: " + Math.round(i.lostNs()) + ", periodNs: " + Math.round(i.periodNs())
                + ", modelContains: \"" + i.model().replace("\"", "\\\"") + "\"}";
    }

    @Override
    public String toString() {
        if (none) return "impact none";
        List<String> parts = new ArrayList<>();
        if (basis != null) parts.add("basis " + basis);
        if (sharePct != null) parts.add("sharePct " + sharePct);
        if (savingPct != null) parts.add("savingPct " + savingPct);
        if (lostNs != null) parts.add("lostNs " + lostNs);
        if (savingNs != null) parts.add("savingNs " + savingNs);
        if (periodNs != null) parts.add("periodNs " + periodNs);
        if (modelContains != null) parts.add("model containing \"" + modelContains + "\"");
        return "impact {" + String.join(", ", parts) + "}";
    }
}
