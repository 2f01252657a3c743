package dlproflint.findings;

import dlproflint.facts.ProfileFacts;

import java.util.List;

/**
 * The outcome of linting one profile.
 *
 * @param findings  reported findings, after enable/disable, severity overrides, suppressions and baseline
 * @param suppressed findings hidden by a suppression or the baseline (kept for counts, never reported as results)
 */
public record ProfileResult(ProfileFacts facts, List<Finding> findings, List<Finding> suppressed) {
}
