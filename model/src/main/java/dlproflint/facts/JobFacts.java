package dlproflint.facts;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Everything known across the ranks of one distributed job: the facts the job-scope rule packs (the
 * {@code distributed} pack) match on, computed from the ranks' compact summaries by the cross-rank reduction.
 * Lists are immutable: ranks in rank order, inputs in the order given, steps by rank then step, collectives by
 * kind; {@code notes} are the choices made about the inputs (profiles left out, how steps were aligned), one
 * sentence each, for the report.
 */
public record JobFacts(JobInfo job, List<RankStats> ranks, List<RankStep> steps, List<CollectiveSummary> collectives,
                       List<JobInput> inputs, List<String> notes) implements Serializable {
    public JobFacts {
        ranks = List.copyOf(ranks);
        steps = List.copyOf(steps);
        collectives = List.copyOf(collectives);
        inputs = List.copyOf(inputs);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /** A job of which nothing is known yet (the base of rule test cases). */
    public static JobFacts empty(String label) {
        RankSpread e = RankSpread.EMPTY;
        return new JobFacts(new JobInfo(label, 0, null, null, null, 0, 0, "", 0, "none", false, e, e, e, e, e, e, e, e, 0),
                List.of(), List.of(), List.of(), List.of(), List.of());
    }

    /** Every fact object to insert into a job-scope rule session. */
    public Stream<Object> facts() {
        return Stream.of(Stream.<Object>of(job), ranks.stream(), steps.stream(), collectives.stream(), inputs.stream())
                .flatMap(s -> s.map(o -> (Object) o))
                .filter(Objects::nonNull);
    }
}
