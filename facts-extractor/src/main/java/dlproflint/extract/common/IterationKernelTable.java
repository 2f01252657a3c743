package dlproflint.extract.common;

import dlproflint.facts.IterationKernel;
import dlproflint.facts.KernelFact;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Kernel rows per aggregated iteration ({@link IterationKernel}), accumulated launch by launch: one cell of
 * three longs per (iteration, kernel row), nothing per launch. A kernel row is the reader's own index of a
 * (op, kernel name, device) aggregate; the reader resolves it to its {@link KernelFact} at the end.
 * <p>
 * At most {@link IterationKernel#MAX_ROWS} cells are held. When a new cell would exceed that, the stride
 * doubles and the cells of iterations off the new stride are dropped, so what remains is a set of complete,
 * evenly spread iterations whatever order the launches arrive in (readers stream per process, not in time
 * order). Only when one iteration alone has more rows than the cap is it kept incomplete.
 */
public final class IterationKernelTable {
    private static final Comparator<String> NULLS_FIRST = Comparator.nullsFirst(Comparator.naturalOrder());
    private final int firstAggregated;
    private final int iterations;
    private final Map<Long, long[]> cells = new HashMap<>();
    private int stride = 1;
    private long droppedLaunches;

    /**
     * @param iterations      number of iterations (valid indexes are 0 .. iterations-1)
     * @param firstAggregated index of the first aggregated iteration (the stride counts from it)
     */
    public IterationKernelTable(int iterations, int firstAggregated) {
        this.iterations = iterations;
        this.firstAggregated = firstAggregated;
    }

    /** One launch of kernel row {@code row} in iteration {@code iteration}, running {@code gpuNs} from {@code startNs}. */
    public void add(int iteration, int row, long gpuNs, long startNs) {
        if (iteration < 0 || iteration >= iterations) return;
        if (!kept(iteration)) {
            droppedLaunches++;
            return;
        }
        long key = key(iteration, row);
        long[] c = cells.get(key);
        if (c == null) {
            if (cells.size() >= IterationKernel.MAX_ROWS && !thin(iteration)) {
                droppedLaunches++;
                return;
            }
            if (!kept(iteration)) {
                droppedLaunches++;
                return;
            }
            c = new long[] {0, 0, startNs};
            cells.put(key, c);
        }
        c[0]++;
        c[1] += gpuNs;
        if (startNs < c[2]) c[2] = startNs;
    }

    /**
     * A cell's key: iteration and row packed, then multiplied by an odd constant (a bijection of the longs). Packed
     * alone, {@link Long#hashCode} folds the two halves together, iteration XOR row: every (iteration, row) pair of
     * equal XOR fell into one hash bucket (a 1M-launch export: thousands of steps by hundreds of rows), which the
     * map turned into trees searched on every launch.
     */
    private static long key(int iteration, int row) {
        return ((long) iteration << 32 | (row & 0xFFFFFFFFL)) * MIX;
    }

    private static int iterationOf(long key) {
        return (int) ((key * UNMIX) >>> 32);
    }

    private static int rowOf(long key) {
        return (int) (key * UNMIX);
    }

    private static final long MIX = 0x9E3779B97F4A7C15L;
    /** MIX's inverse modulo 2^64 */
    private static final long UNMIX = 0xF1DE83E19937733DL;

    private boolean kept(int iteration) {
        return Math.floorMod(iteration - firstAggregated, stride) == 0;
    }

    /**
     * Doubles the stride and drops the cells of the iterations it leaves out; false when that would leave
     * nothing to drop but {@code iteration} itself (a single iteration larger than the cap).
     */
    private boolean thin(int iteration) {
        if ((long) stride * 2 > iterations) return false;
        stride *= 2;
        cells.entrySet().removeIf(e -> {
            boolean drop = !kept(iterationOf(e.getKey()));
            if (drop) droppedLaunches += e.getValue()[0];
            return drop;
        });
        return true;
    }

    /** Launches not itemised (their iterations' own totals still count them). */
    public long droppedLaunches() {
        return droppedLaunches;
    }

    /** The warning a reader adds when iterations were left out, or null. */
    public String sampleWarning() {
        if (droppedLaunches == 0) return null;
        String kept = stride == 1 ? "one iteration alone has more than " + IterationKernel.MAX_ROWS + " kernel rows"
                : "per-iteration kernel rows are kept for every " + ordinal(stride) + " aggregated iteration only (at most "
                + IterationKernel.MAX_ROWS + " rows per profile)";
        return kept + ": " + droppedLaunches + " launches are not itemised; the iterations' own totals still count them";
    }

    private static String ordinal(int n) {
        int mod100 = n % 100;
        String suffix = mod100 >= 11 && mod100 <= 13 ? "th" : switch (n % 10) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
        return n + suffix;
    }

    /**
     * The cells as facts, by iteration and then by first launch.
     *
     * @param kernelRow the aggregate behind a row index (for its op id, name, device and tensor-core use)
     */
    public List<IterationKernel> facts(IntFunction<KernelFact> kernelRow) {
        return facts(kernelRow, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    /** The cells of iterations {@code from..to} (inclusive) only: a steady window decided after the launches. */
    public List<IterationKernel> facts(IntFunction<KernelFact> kernelRow, int from, int to) {
        List<IterationKernel> out = new ArrayList<>(cells.size());
        for (Map.Entry<Long, long[]> e : cells.entrySet()) {
            int iteration = iterationOf(e.getKey());
            if (iteration < from || iteration > to) continue;
            KernelFact k = kernelRow.apply(rowOf(e.getKey()));
            long[] c = e.getValue();
            out.add(new IterationKernel(iteration, k.opId(), k.name(), k.deviceId(), k.usesTc(), c[0], c[1], c[2]));
        }
        out.sort(IterationKernelTable::byIterationAndFirstStart);
        return out;
    }

    /**
     * By iteration, first launch, op id, name (absent ones first), device: one method rather than a chain of key
     * extractors (up to 200,000 cells are sorted, and the chain's lambdas cost more than the comparisons).
     */
    private static int byIterationAndFirstStart(IterationKernel a, IterationKernel b) {
        int c = Integer.compare(a.iteration(), b.iteration());
        if (c != 0) return c;
        c = Long.compare(a.firstStartNs(), b.firstStartNs());
        if (c != 0) return c;
        c = NULLS_FIRST.compare(a.opId(), b.opId());
        if (c != 0) return c;
        c = NULLS_FIRST.compare(a.name(), b.name());
        return c != 0 ? c : Integer.compare(a.deviceId(), b.deviceId());
    }
}
