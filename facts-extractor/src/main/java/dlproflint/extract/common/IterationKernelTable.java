package dlproflint.extract.common;

import dlproflint.facts.IterationKernel;
import dlproflint.facts.KernelFact;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Kernel rows per aggregated iteration ({@link IterationKernel}), accumulated launch by launch: one cell of
 * three longs per (iteration, kernel row) in parallel columns, found through a primitive map, nothing per launch. A kernel row is the reader's own index of a
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
    /** (iteration, row) packed -> cell index; the cells' columns below, in the order they were made */
    private LongIntMap index = new LongIntMap();
    private long[] keys = new long[64];
    private long[] launches = new long[64];
    private long[] gpuNs = new long[64];
    private long[] firstStart = new long[64];
    private int size;
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
        int c = index.get(key, -1);
        if (c < 0) {
            if (size >= IterationKernel.MAX_ROWS && !thin(iteration)) {
                droppedLaunches++;
                return;
            }
            if (!kept(iteration)) {
                droppedLaunches++;
                return;
            }
            c = newCell(key, startNs);
        }
        launches[c]++;
        this.gpuNs[c] += gpuNs;
        if (startNs < firstStart[c]) firstStart[c] = startNs;
    }

    private int newCell(long key, long startNs) {
        if (size == keys.length) {
            int n = size * 2;
            keys = java.util.Arrays.copyOf(keys, n);
            launches = java.util.Arrays.copyOf(launches, n);
            gpuNs = java.util.Arrays.copyOf(gpuNs, n);
            firstStart = java.util.Arrays.copyOf(firstStart, n);
        }
        int c = size++;
        keys[c] = key;
        launches[c] = 0;
        gpuNs[c] = 0;
        firstStart[c] = startNs;
        index.put(key, c);
        return c;
    }

    /**
     * A cell's key: iteration and row packed (iterations are never negative, so never the map's empty key). The map
     * mixes the bits itself: packed alone, {@link Long#hashCode} would fold the two halves together, iteration XOR
     * row, and every pair of equal XOR (thousands of steps by hundreds of rows) would share a bucket.
     */
    private static long key(int iteration, int row) {
        return (long) iteration << 32 | (row & 0xFFFFFFFFL);
    }

    private static int iterationOf(long key) {
        return (int) (key >>> 32);
    }

    private static int rowOf(long key) {
        return (int) key;
    }

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
        int kept = 0;
        index = new LongIntMap();
        for (int c = 0; c < size; c++) {
            if (!kept(iterationOf(keys[c]))) {
                droppedLaunches += launches[c];
                continue;
            }
            keys[kept] = keys[c];
            launches[kept] = launches[c];
            gpuNs[kept] = gpuNs[c];
            firstStart[kept] = firstStart[c];
            index.put(keys[kept], kept);
            kept++;
        }
        size = kept;
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
        List<IterationKernel> out = new ArrayList<>(size);
        for (int c = 0; c < size; c++) {
            int iteration = iterationOf(keys[c]);
            if (iteration < from || iteration > to) continue;
            KernelFact k = kernelRow.apply(rowOf(keys[c]));
            out.add(new IterationKernel(iteration, k.opId(), k.name(), k.deviceId(), k.usesTc(), launches[c], gpuNs[c],
                    firstStart[c]));
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
