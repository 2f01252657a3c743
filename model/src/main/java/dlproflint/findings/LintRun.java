package dlproflint.findings;

import java.util.List;

/**
 * Everything a reporter needs: the tool, the packs and rules that ran, and each profile's result
 * in a deterministic order (the order the profiles were given). A job run ({@code dlprof-lint job}) has one
 * result, the job's findings (the job-scope packs' and the per-rank findings folded over the ranks), and the
 * cross-rank facts in {@code job}.
 */
public record LintRun(String toolVersion, List<PackInfo> packs, List<RuleMetadata> rules,
                      List<ProfileResult> results, JobResult job) {
    /** A run over profiles linted one by one (no distributed job). */
    public LintRun(String toolVersion, List<PackInfo> packs, List<RuleMetadata> rules, List<ProfileResult> results) {
        this(toolVersion, packs, rules, results, null);
    }

    /** Whether this run linted a distributed job ({@code dlprof-lint job}): {@link #results()} then holds the job's one result. */
    public boolean isJob() {
        return job != null;
    }
}
