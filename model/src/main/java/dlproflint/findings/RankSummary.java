package dlproflint.findings;

import dlproflint.facts.CollectiveCalls;
import dlproflint.facts.DistributedInfo;
import dlproflint.facts.StepActivity;

import java.io.Serializable;
import java.util.List;

/**
 * What one rank's profile contributes to a distributed job, kept after its full facts are dropped: a few
 * hundred bytes per step instead of the profile's aggregates, so a job's memory grows with ranks × steps.
 * Made where the rank is read (a thread of {@code dlprof-lint job}, a Spark executor) and reduced across
 * ranks on one machine.
 *
 * @param profile     the file as given
 * @param format      the reader that read it
 * @param distributed what the profile says about its rank and job, or null
 * @param steps       per-step activity, in step order
 * @param collectives per-step communication by kind
 * @param findings    the rank's findings from the profile-scope packs, before suppressions and baseline
 * @param hostname    host name when recorded, else null
 * @param gpu         name of the GPU that did the work, else null
 * @param warnings    the reader's warnings (code: message)
 */
public record RankSummary(String profile, String format, DistributedInfo distributed, List<StepActivity> steps,
                          List<CollectiveCalls> collectives, List<Finding> findings, String hostname, String gpu,
                          List<String> warnings) implements Serializable {
    public RankSummary {
        steps = List.copyOf(steps);
        collectives = List.copyOf(collectives);
        findings = List.copyOf(findings);
        warnings = List.copyOf(warnings);
    }
}
