package dlproflint.ruletests;

import dlproflint.extract.ReadOptions;
import dlproflint.facts.ProfileFacts;
import dlproflint.findings.Finding;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dlprof/dataloader-bound}'s saving on natural experiments: the TensorBoard plugin's ResNet-50 samples were
 * profiled with {@code num_workers=0} and again with {@code num_workers=4} on the same V100 (three pairs, three plugin
 * versions). What the workers saved lies between two readings of the pair: the profiled steps' difference (both
 * slowed by the profiler, the single-process loader's own recorded events included) and the difference of the steps
 * the reader replays without the profiler's host cost. The rule's estimate — the replay of the {@code num_workers=0}
 * trace with its DataLoader calls taken off the loop's clock — must lie within 5 points of that bracket. As profiled
 * (the data loader's share of the profiled step, the rule's model before the replay) it overstated even the profiled
 * difference by 9-20 points.
 */
class DataLoaderTwinsTest {
    private static final String SAMPLES = "kineto-tb-plugin/%s/tb_plugin/samples/%s/%s";
    private static final String[][] PAIRS = {
        {"515e6115", "resnet50_num_workers_0/worker0.pt.trace.json.gz", "resnet50_num_workers_4/worker0.pt.trace.json.gz"},
        {"790be856", "resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
            "resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz"},
        {"86791410", "resnet50_profiler_api_num_workers_0/worker0.pt.trace.json.gz",
            "resnet50_profiler_api_num_workers_4/worker0.pt.trace.json.gz"},
    };
    private static final double POINTS = 5;

    @Test
    void theSavingOfWorkersLiesBetweenTheTwinsProfiledAndReplayedSteps() throws Exception {
        StringBuilder table = new StringBuilder(String.format("%n%-10s %10s %10s %10s %10s%n", "pair", "profiled",
                "replayed", "estimate", "as profiled"));
        for (String[] p : PAIRS) {
            ProfileFacts nw0 = read(String.format(SAMPLES, p[0], p[1].split("/")[0], p[1].split("/")[1]));
            ProfileFacts nw4 = read(String.format(SAMPLES, p[0], p[2].split("/")[0], p[2].split("/")[1]));
            double profiled = 100 * (1 - nw4.iterationSummary().avgDurationNs() / nw0.iterationSummary().avgDurationNs());
            double replayed = 100 * (1 - nw4.profilerOverhead().unprofiledStepNs() / nw0.profilerOverhead().unprofiledStepNs());
            List<Finding> f = AllPacks.engine().lint(nw0);
            List<Finding> loader = f.stream().filter(x -> x.ruleId().equals("dlprof/dataloader-bound")).toList();
            assertEquals(1, loader.size(), p[0] + ": dataloader-bound on num_workers=0");
            double estimate = loader.get(0).impact().savingPct();
            assertTrue(nw0.dataLoader().replayed(), p[0] + ": priced on the replay");
            double asProfiled = nw0.breakdown().dataloaderPct();
            table.append(String.format("%-10s %9.1f%% %9.1f%% %9.1f%% %9.1f%%%n", p[0], profiled, replayed, estimate,
                    asProfiled));
            double low = Math.min(profiled, replayed) - POINTS;
            double high = Math.max(profiled, replayed) + POINTS;
            assertTrue(estimate >= low && estimate <= high, p[0] + ": estimate " + estimate + " outside [" + low + ", "
                    + high + "]" + table);
        }
        System.out.println(table);
    }

    private static ProfileFacts read(String corpusPath) throws Exception {
        return AllPacks.readers().read(Corpus.file(corpusPath), ReadOptions.DEFAULT);
    }
}
