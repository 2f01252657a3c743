package dlproflint.findings;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The one order findings are listed in, by the engine and by every report: severity (most severe first), then
 * what a fix recovers (the larger share of the step or run first, {@link Impact#savingPct()}, the share lost breaking
 * ties; findings without a measured impact after those with one), then rule id, subject, fingerprint and problem as
 * tie-breakers, so output never depends on the engine's firing order. It agrees with SARIF's {@code rank}.
 */
public final class FindingOrder {
    private static final Comparator<String> TEXT = Comparator.nullsFirst(Comparator.naturalOrder());

    public static final Comparator<Finding> COMPARATOR = Comparator
            .comparing(Finding::severity, Comparator.nullsLast(Comparator.reverseOrder()))
            .thenComparing(FindingOrder::savingShare, Comparator.reverseOrder())
            .thenComparing(FindingOrder::lostShare, Comparator.reverseOrder())
            .thenComparing(Finding::ruleId, TEXT)
            .thenComparing(f -> f.subject() == null ? null : f.subject().ref(), TEXT)
            .thenComparing(f -> f.subject() == null ? null : f.subject().name(), TEXT)
            .thenComparing(Finding::fingerprint, TEXT)
            .thenComparing(Finding::problem, TEXT);

    private FindingOrder() {
    }

    public static List<Finding> sorted(List<Finding> findings) {
        List<Finding> copy = new ArrayList<>(findings == null ? List.of() : findings);
        copy.sort(COMPARATOR);
        return copy;
    }

    /** Share of the step (or run) a fix recovers; -1 without a measured impact, so those come last among equals. */
    private static double savingShare(Finding f) {
        return f.impact() == null ? -1 : f.impact().savingPct();
    }

    private static double lostShare(Finding f) {
        return f.impact() == null ? -1 : f.impact().sharePct();
    }
}
