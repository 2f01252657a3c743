package dlproflint.cli;

import dlproflint.findings.LintRun;

/**
 * How a command's inputs become one {@link LintRun}, after its {@link LintSession} is set up: every profile read and
 * linted in one place ({@link ProfileRead}), then filtered by the configuration's suppressions and the baseline.
 */
sealed interface LintPlan permits ProfilePlan, JobPlan {
    /**
     * Reads, lints and filters; prints one line per unreadable input and returns null when the run cannot go on
     * (the caller exits 3).
     *
     * @param jobs inputs read at once ({@code --jobs}), 0 for the default
     */
    LintRun run(LintSession session, Baseline baseline, int jobs) throws Exception;
}
