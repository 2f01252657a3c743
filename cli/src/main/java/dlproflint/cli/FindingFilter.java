package dlproflint.cli;

import dlproflint.cli.config.Suppression;
import dlproflint.findings.Finding;
import dlproflint.findings.FindingOrder;
import dlproflint.findings.ProfileResult;
import dlproflint.facts.ProfileFacts;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Removes suppressed and baselined findings from a profile's results (kept in
 * {@link ProfileResult#suppressed()} for counts), both in {@link FindingOrder}.
 */
public final class FindingFilter {
    private final List<Suppression> active;
    private final Baseline baseline;

    /** Expired suppressions no longer apply; the caller warns about them. */
    public FindingFilter(List<Suppression> suppressions, Baseline baseline, LocalDate today) {
        this.active = suppressions.stream().filter(s -> !s.expiredOn(today)).toList();
        this.baseline = baseline;
    }

    public ProfileResult apply(ProfileFacts facts, List<Finding> raw) {
        List<Finding> kept = new ArrayList<>();
        List<Finding> hidden = new ArrayList<>();
        for (Finding f : raw) {
            if (suppressed(f)) hidden.add(f);
            else kept.add(f);
        }
        kept.sort(FindingOrder.COMPARATOR);
        hidden.sort(FindingOrder.COMPARATOR);
        return new ProfileResult(facts, kept, hidden);
    }

    private boolean suppressed(Finding f) {
        String ref = f.subject() == null ? "" : f.subject().ref();
        for (Suppression s : active) {
            if (s.matches(f.ruleId(), ref)) return true;
        }
        return baseline != null && baseline.contains(f);
    }
}
