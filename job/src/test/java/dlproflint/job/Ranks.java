package dlproflint.job;

import dlproflint.facts.CollectiveCalls;
import dlproflint.facts.CollectiveKind;
import dlproflint.facts.DistributedInfo;
import dlproflint.facts.StepActivity;
import dlproflint.findings.Finding;
import dlproflint.findings.RankSummary;

import java.util.ArrayList;
import java.util.List;

/** Rank summaries for tests: steps with chosen compute and all-reduce time. */
final class Ranks {
    private Ranks() {
    }

    static DistributedInfo info(int rank, int world) {
        return new DistributedInfo(rank, world, "nccl", "distributedInfo", null, null);
    }

    /**
     * @param comm all-reduce time per step (ns); compute fills the rest of a 100 ms step, half of the comm overlapped
     */
    static RankSummary rank(String file, DistributedInfo d, int[] steps, long[] comm, List<Finding> findings) {
        List<StepActivity> acts = new ArrayList<>();
        List<CollectiveCalls> calls = new ArrayList<>();
        for (int i = 0; i < steps.length; i++) {
            long step = 100_000_000;
            long c = comm[i];
            acts.add(new StepActivity(steps[i], i * step, step, step - c, c, c / 2, 1_000_000, 0));
            calls.add(new CollectiveCalls(steps[i], CollectiveKind.ALL_REDUCE, 4, c, 4_000_000));
        }
        return new RankSummary(file, "kineto", d, acts, calls, findings, null, null, List.of());
    }

    static RankSummary rank(String file, DistributedInfo d, int[] steps, long[] comm) {
        return rank(file, d, steps, comm, List.of());
    }
}
