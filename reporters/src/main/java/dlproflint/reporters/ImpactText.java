package dlproflint.reporters;

import dlproflint.findings.Impact;
import dlproflint.findings.Units;

/**
 * A finding's {@link Impact} in words for the human-readable reports: what it costs per step (or over
 * the analysed range), the share of that step or range, and what a fix recovers when the rule estimated it.
 */
public final class ImpactText {
    private ImpactText() {
    }

    /** {@code "12.3 ms per step (43.8%); a fix saves about 8.1 ms (28.8%)"}, or null when there is no impact. */
    public static String of(Impact impact) {
        if (impact == null) return null;
        String per = impact.basis() == Impact.Basis.STEP ? " per step" : " over the analysed range";
        StringBuilder b = new StringBuilder(Units.duration(impact.lostNs())).append(per);
        if (impact.periodNs() > 0) b.append(" (").append(Units.pct(impact.sharePct())).append(')');
        if (impact.savingNs() > 0) {
            b.append("; a fix saves about ").append(Units.duration(impact.savingNs()));
            if (impact.periodNs() > 0) b.append(" (").append(Units.pct(impact.savingPct())).append(')');
        }
        return b.toString();
    }
}
