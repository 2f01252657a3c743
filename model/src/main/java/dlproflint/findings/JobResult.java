package dlproflint.findings;

import dlproflint.facts.JobFacts;

/**
 * The cross-rank part of a job run: the job's facts. Its findings are the run's one {@link ProfileResult}.
 *
 * @param ranksSummarised ranks whose per-rank findings were folded into job findings
 */
public record JobResult(JobFacts facts, int ranksSummarised) {
}
