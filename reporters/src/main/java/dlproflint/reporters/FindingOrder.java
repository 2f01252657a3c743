package dlproflint.reporters;

import dlproflint.findings.Finding;
import dlproflint.findings.Subject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The one order every report lists findings in: severity (most severe first), rule id, subject,
 * then fingerprint and problem as tie-breakers, so output never depends on the engine's firing order.
 */
public final class FindingOrder {
    private static final Comparator<String> TEXT = Comparator.nullsFirst(Comparator.naturalOrder());

    public static final Comparator<Finding> COMPARATOR = Comparator
            .comparing(Finding::severity, Comparator.nullsLast(Comparator.reverseOrder()))
            .thenComparing(Finding::ruleId, TEXT)
            .thenComparing(f -> subjectRef(f.subject()), TEXT)
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

    private static String subjectRef(Subject s) {
        return s == null ? null : s.ref();
    }
}
