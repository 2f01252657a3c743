/**
 * The cross-rank reduction of a distributed job, shared by {@code dlprof-lint job} and the Spark application:
 * {@link dlproflint.job.RankSummaries} reduces a rank's facts to a compact summary where the rank is read,
 * {@link dlproflint.job.JobRoster} decides which profile is which rank (and which are left out, and why),
 * {@link dlproflint.job.JobReducer} aligns the ranks' steps by number and computes the cross-rank facts, and
 * {@link dlproflint.job.FindingFolder} folds the ranks' own findings into one job finding per rule and subject.
 * Everything here is deterministic in the order profiles were given, whatever order they were read in.
 */
package dlproflint.job;
