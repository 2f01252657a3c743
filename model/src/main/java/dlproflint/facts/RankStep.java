package dlproflint.facts;

import java.io.Serializable;

/** One rank in one aligned step (nanoseconds); {@code waitNs} as in {@link RankStats#waitNs()}. */
public record RankStep(int rank, int step, long stepNs, long computeNs, long commNs, long exposedCommNs,
                       long dataLoaderNs, long idleNs, long waitNs) implements Serializable {
}
