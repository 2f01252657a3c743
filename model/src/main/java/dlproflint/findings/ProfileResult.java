package dlproflint.findings;

import dlproflint.detail.ProfileDetail;
import dlproflint.facts.ProfileFacts;

import java.util.List;

/**
 * The outcome of linting one profile.
 *
 * @param findings  reported findings, after enable/disable, severity overrides, suppressions and baseline
 * @param suppressed findings hidden by a suppression or the baseline (kept for counts, never reported as results)
 * @param detail    what the HTML report's timeline, memory and module views draw, read only when one is written;
 *                  null otherwise
 */
public record ProfileResult(ProfileFacts facts, List<Finding> findings, List<Finding> suppressed, ProfileDetail detail) {
    public ProfileResult(ProfileFacts facts, List<Finding> findings, List<Finding> suppressed) {
        this(facts, findings, suppressed, null);
    }

    public ProfileResult withDetail(ProfileDetail d) {
        return new ProfileResult(facts, findings, suppressed, d);
    }
}
