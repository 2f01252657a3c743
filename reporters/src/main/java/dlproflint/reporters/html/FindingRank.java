package dlproflint.reporters.html;

import dlproflint.findings.Finding;
import dlproflint.findings.Impact;
import dlproflint.reporters.FindingOrder;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The order of the HTML report's findings: the costliest first. Findings whose rule estimated an
 * {@link Impact} come first, by the share of the step (or analysed range) they lose, then by the time lost;
 * findings without an impact follow in the order every report uses ({@link FindingOrder}: severity, rule,
 * subject), which also breaks ties.
 */
final class FindingRank {
    static final Comparator<Finding> ORDER = Comparator
            .comparing((Finding f) -> f.impact() == null)
            .thenComparing(Comparator.comparingDouble(FindingRank::share).reversed())
            .thenComparing(Comparator.comparingDouble(FindingRank::lost).reversed())
            .thenComparing(FindingOrder.COMPARATOR);

    private FindingRank() {
    }

    static List<Finding> sorted(List<Finding> findings) {
        List<Finding> copy = new ArrayList<>(findings == null ? List.of() : findings);
        copy.sort(ORDER);
        return copy;
    }

    private static double share(Finding f) {
        return f.impact() == null ? 0 : f.impact().sharePct();
    }

    private static double lost(Finding f) {
        return f.impact() == null ? 0 : f.impact().lostNs();
    }

    /** "≈ 41.0 ms/step, 18.0 % of the step", or over the analysed range; null without an impact. */
    static String headline(Impact i) {
        if (i == null) return null;
        boolean step = i.basis() == Impact.Basis.STEP;
        String lost = "\u2248 " + Fmt.duration(i.lostNs()) + (step ? "/step" : " over the analysed range");
        String share = i.periodNs() > 0 ? ", " + Fmt.pct(i.sharePct()) + (step ? " of the step" : " of it") : "";
        return lost + share;
    }

    /** "a fix saves ≈ 30.0 ms/step (13.0 %)" when the saving is known and differs from the loss, else null. */
    static String saving(Impact i) {
        if (i == null || i.savingNs() <= 0 || i.savingNs() >= i.lostNs()) return null;
        boolean step = i.basis() == Impact.Basis.STEP;
        return "a fix saves \u2248 " + Fmt.duration(i.savingNs()) + (step ? "/step" : "")
                + (i.periodNs() > 0 ? " (" + Fmt.pct(i.savingPct()) + ")" : "");
    }
}
