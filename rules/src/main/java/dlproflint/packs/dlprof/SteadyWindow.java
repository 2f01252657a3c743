package dlproflint.packs.dlprof;

import dlproflint.facts.MeanSd;
import dlproflint.facts.Iteration;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Finds the steady iteration window to aggregate over ({@code --iter-start/--iter-stop}), for
 * {@code bad-iteration-range.drl}.
 *
 * <p>The first interval of a key-node split runs from time 0 to the first key-node stop (start-up,
 * cuDNN autotuning, lazy allocation) and the last one from the last key node to the end of the capture
 * (teardown), so both are excluded when there are enough iterations. Among the rest, an iteration is
 * steady when its duration is within {@code tolerancePct} of the median; the proposal is the longest
 * run of consecutive steady iterations (earliest on a tie).
 */
public final class SteadyWindow {
    private SteadyWindow() {
    }

    /** An inclusive iteration window with its duration statistics. */
    public record Window(int start, int stop, int count, double avgNs, double stdDevNs) {
        public double variationPct() {
            return avgNs <= 0 ? 0 : 100.0 * stdDevNs / avgNs;
        }
    }

    /** The slowest iteration among the aggregated ones, or null. */
    public static Iteration slowest(Collection<?> iterations) {
        Iteration best = null;
        for (Object o : iterations) {
            if (o instanceof Iteration it && it.aggregated() && (best == null || it.durationNs() > best.durationNs())) {
                best = it;
            }
        }
        return best;
    }

    /**
     * @return the proposed window, or null when no run of at least {@code minIterations} steady
     *         iterations exists
     */
    public static Window propose(Collection<?> iterations, double tolerancePct, int minIterations) {
        List<Iteration> its = new ArrayList<>();
        for (Object o : iterations) if (o instanceof Iteration it) its.add(it);
        its.sort(Comparator.comparingInt(Iteration::index));
        if (its.size() >= minIterations + 2) {
            its = its.subList(1, its.size() - 1); // drop start-up and teardown intervals
        }
        if (its.size() < minIterations || minIterations < 1) return null;
        long[] d = its.stream().mapToLong(Iteration::durationNs).sorted().toArray();
        double median = d.length % 2 == 1 ? d[d.length / 2] : (d[d.length / 2 - 1] + d[d.length / 2]) / 2.0;
        double tol = median * tolerancePct / 100.0;
        int bestFrom = -1;
        int bestLen = 0;
        int runFrom = -1;
        for (int i = 0; i <= its.size(); i++) {
            boolean steady = i < its.size() && Math.abs(its.get(i).durationNs() - median) <= tol;
            boolean contiguous = steady && runFrom >= 0 && its.get(i).index() == its.get(i - 1).index() + 1;
            if (runFrom >= 0 && !contiguous) { // close the current run
                if (i - runFrom > bestLen) {
                    bestLen = i - runFrom;
                    bestFrom = runFrom;
                }
                runFrom = -1;
            }
            if (steady && runFrom < 0) runFrom = i;
        }
        if (bestLen < minIterations) return null;
        List<Iteration> w = its.subList(bestFrom, bestFrom + bestLen);
        MeanSd window = new MeanSd();
        for (Iteration it : w) window.add(it.durationNs());
        return new Window(w.get(0).index(), w.get(w.size() - 1).index(), w.size(), window.mean(), window.sd());
    }
}
