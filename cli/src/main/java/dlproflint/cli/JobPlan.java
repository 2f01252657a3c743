package dlproflint.cli;

import dlproflint.facts.JobFacts;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.findings.Finding;
import dlproflint.findings.JobResult;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.RankSummary;
import dlproflint.job.FindingFolder;
import dlproflint.job.JobReducer;
import dlproflint.job.JobRoster;

import java.util.ArrayList;
import java.util.List;

/**
 * The plan of {@code dlprof-lint job}: every rank read through the {@link JobBackend} (each linted by the
 * profile-scope packs and reduced to its summary where it is read), then on this machine: the ranks identified, the
 * cross-rank facts computed, the job-scope packs run once, the ranks' findings folded, suppressions and the baseline
 * applied. A rank that cannot be read does not stop the job (it is reported with the others); when none can, the run
 * is null.
 */
final class JobPlan implements LintPlan {
    private final JobBackend backend;
    private final List<String> ranks;
    private int read;
    private long readNs;

    JobPlan(JobBackend backend, List<String> ranks) {
        this.backend = backend;
        this.ranks = List.copyOf(ranks);
    }

    @Override
    public LintRun run(LintSession session, Baseline baseline, int jobs) throws Exception {
        FindingFilter filter = session.filter(baseline);
        long t0 = System.nanoTime();
        ProfileRead here = session.profileRead();
        List<JobRoster.Read> reads = callLines(backend.readAll(ranks, session::rankSpec, new RankReader(here.withoutSource()), jobs), here);
        readNs = System.nanoTime() - t0;
        read = reads.size();
        for (JobRoster.Read r : reads) {
            if (r.summary() == null) session.unreadable(r.profile(), r.error());
        }
        if (reads.stream().allMatch(r -> r.summary() == null)) return null;
        JobRoster roster = JobRoster.of(reads);
        String label = JobLabel.of(roster.inputs());
        JobFacts facts = JobReducer.reduce(label, roster);
        List<Finding> raw = new ArrayList<>(session.engine().lintJob(facts, label));
        raw.addAll(FindingFolder.fold(roster.ranks(), roster.ranks().size()));
        ProfileFacts job = ProfileFacts.builder().profile(new ProfileInfo(label, "job", null, null, 0, 0)).build();
        ProfileResult result = filter.apply(job, raw);
        return new LintRun(ToolVersion.get(), session.engine().packs(), session.engine().rules(), List.of(result),
                new JobResult(facts, roster.ranks().size()));
    }

    /**
     * Each rank's findings placed at the call in the user's source where the trace names only a function: done here,
     * on the machine the command runs on, for ranks read on this machine's threads and on a cluster's executors alike
     * (those have the profiles, not the repository).
     */
    private static List<JobRoster.Read> callLines(List<JobRoster.Read> reads, ProfileRead here) {
        List<JobRoster.Read> out = new ArrayList<>(reads.size());
        for (JobRoster.Read r : reads) {
            RankSummary s = r.summary();
            out.add(s == null ? r : JobRoster.Read.ok(r.profile(), new RankSummary(s.profile(), s.format(), s.distributed(), s.steps(),
                    s.collectives(), here.callLines(s.findings()), s.hostname(), s.gpu(), s.warnings())));
        }
        return out;
    }

    /** {@code read 64 profiles in 12.3 s: 192 ms per rank, 2 at a time}, after {@link #run}. */
    String timing() {
        return String.format(java.util.Locale.ROOT, "read %d %s in %.1f s: %.0f ms per rank, %d at a time", read,
                read == 1 ? "profile" : "profiles", readNs / 1e9, readNs / 1e6 / Math.max(1, read), backend.parallelism());
    }
}
