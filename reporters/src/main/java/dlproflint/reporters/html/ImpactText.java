package dlproflint.reporters.html;

import dlproflint.findings.Impact;

/** A finding's {@link Impact} in words, the first thing its card and the findings overview show. */
final class ImpactText {
    private ImpactText() {
    }

    /** "≈ 41.0 ms/step, 13.8% of the step", or over the analysed range; null without an impact. */
    static String headline(Impact i) {
        if (i == null) return null;
        boolean step = i.basis() == Impact.Basis.STEP;
        String lost = "\u2248 " + Fmt.duration(i.lostNs()) + (step ? "/step" : " over the analysed range");
        String share = i.periodNs() > 0 ? ", " + Fmt.pct(i.sharePct()) + (step ? " of the step" : " of it") : "";
        return lost + share;
    }

    /** "a fix saves ≈ 30.0 ms/step (10.1%)" when the saving is known and less than the loss, else null. */
    static String saving(Impact i) {
        if (i == null || i.savingNs() <= 0 || i.savingNs() >= i.lostNs()) return null;
        boolean step = i.basis() == Impact.Basis.STEP;
        return "a fix saves \u2248 " + Fmt.duration(i.savingNs()) + (step ? "/step" : "")
                + (i.periodNs() > 0 ? " (" + Fmt.pct(i.savingPct()) + ")" : "");
    }
}
