package dlproflint.reporters.html.viewer;

import dlproflint.facts.Iteration;
import dlproflint.facts.IterationKernel;
import dlproflint.facts.Percent;
import dlproflint.reporters.html.table.DataBlock;
import dlproflint.reporters.html.table.Derivation;
import dlproflint.reporters.html.table.Derivation.Aggregate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The iteration blocks of a profile: one row per iteration (DLProf's Iteration Summary), the kernel rows of
 * each aggregated iteration ({@link IterationKernel}, for Kernels by Iteration) and, derived from them in the
 * browser, their per-op totals (for Kernels by Op). The kernel rows get what is left of the page's data budget:
 * when they do not fit, whole iterations are kept, every n-th one from the first, as the readers do.
 */
final class IterationData {
    /** Most per-iteration kernel rows embedded, whatever the budget (about 3 MB). */
    static final int MAX_KERNEL_ROWS = 100_000;

    final DataBlock iterations;
    final DataBlock kernels;
    final DataBlock ops;
    /** iterations with kernel rows in the profile's facts / embedded here */
    final int itemised;
    final int embedded;
    /** every {@code stride}-th itemised iteration is embedded */
    final int stride;

    private IterationData(DataBlock iterations, DataBlock kernels, DataBlock ops, int itemised, int embedded, int stride) {
        this.iterations = iterations;
        this.kernels = kernels;
        this.ops = ops;
        this.itemised = itemised;
        this.embedded = embedded;
        this.stride = stride;
    }

    /** The iterations block alone (its size counts before the kernel rows get their budget). */
    static DataBlock iterations(String pid, RowIndex index, List<IterationKernel> facts, FindingRefs refs) {
        Map<Integer, long[]> launches = new HashMap<>(); // iteration → {tc launches, all launches}
        for (IterationKernel ik : facts) {
            long[] n = launches.computeIfAbsent(ik.iteration(), x -> new long[2]);
            n[1] += ik.calls();
            if (ik.usesTc()) n[0] += ik.calls();
        }
        int gpus = index.usedGpus();
        DataBlock.Builder ib = new DataBlock.Builder(pid + "-d-its", "it", "agg", "start", "dur", "kernels", "tck",
                "gpu", "gpuAvg", "gpuPct", "tc", "tcAvg", "tcPct", "mem", "findings");
        for (int i = 0; i < index.iterations.size(); i++) {
            Iteration it = index.iterations.get(i);
            long dur = Math.max(0, it.durationNs());
            long[] n = launches.get(it.index());
            // the TC launch count is known only when the iteration's kernel rows account for all its launches
            Long tck = n != null && n[1] == it.kernelCount() ? n[0] : null;
            double gpuAvg = (double) it.gpuTimeNs() / gpus;
            double tcAvg = (double) it.tcTimeNs() / gpus;
            ib.row(it.index(), it.aggregated(), it.startNs(), dur, it.kernelCount(), tck, it.gpuTimeNs(),
                    Math.round(gpuAvg), pct(gpuAvg, dur), it.tcTimeNs(), Math.round(tcAvg), pct(tcAvg, dur),
                    it.memoryTimeNs(), refs.findings(FindingRefs.Kind.ITERATION, i));
        }
        return ib.build();
    }

    /**
     * @param iterations the block made by {@link #iterations}
     * @param budget     characters of JSON the kernel rows may take
     */
    static IterationData of(String pid, RowIndex index, List<IterationKernel> facts, DataBlock iterations, long budget) {
        // kernel rows by iteration, resolved to embedded kernels (rows of kernels not embedded are left out)
        Map<Integer, List<Object[]>> byIteration = new TreeMap<>();
        for (IterationKernel ik : facts) {
            Integer it = index.iteration(ik.iteration());
            Integer k = index.kernel(ik.opId(), ik.name(), ik.deviceId());
            if (it == null || k == null) continue;
            byIteration.computeIfAbsent(ik.iteration(), x -> new ArrayList<>()).add(new Object[] {ik.iteration(), k,
                    index.op(ik.opId()), ik.firstStartNs() - index.iterations.get(it).startNs(), ik.calls(),
                    ik.gpuTimeNs(), ik.usesTc()});
        }
        String[] fields = {"it", "k", "op", "off", "calls", "gpu", "tc"};
        int stride = stride(byIteration, Math.min(MAX_KERNEL_ROWS, budget / rowChars(byIteration, fields)));
        int first = byIteration.isEmpty() ? 0 : byIteration.keySet().iterator().next();
        DataBlock.Builder kb = new DataBlock.Builder(pid + "-d-ik", fields);
        int embedded = 0;
        for (Map.Entry<Integer, List<Object[]>> e : byIteration.entrySet()) {
            if ((e.getKey() - first) % stride != 0) continue;
            if (kb.size() >= MAX_KERNEL_ROWS) break; // only when one iteration alone has more rows
            embedded++;
            for (Object[] r : e.getValue()) {
                if (kb.size() >= MAX_KERNEL_ROWS) break;
                kb.row(r);
            }
        }
        DataBlock kernels = kb.build();
        DataBlock ops = DataBlock.derive(pid + "-d-itops", kernels, new Derivation(kernels.id(), List.of("it", "op"),
                List.of(new Aggregate("start", "min", "off", null), new Aggregate("kernels", "sum", "calls", null),
                        new Aggregate("tck", "sum", "calls", "tc"), new Aggregate("gpu", "sum", "gpu", null),
                        new Aggregate("tc", "sum", "gpu", "tc")), List.of("it", "start")));
        return new IterationData(iterations, kernels, ops, byIteration.size(), embedded, stride);
    }

    private static double pct(double part, long whole) {
        // kernel time summed over the GPUs and averaged per GPU, over the iteration's wall time: kernels on
        // concurrent streams overlap, so the share stops at 100 (Percent); 3 decimals, what the JSON holds, so
        // the server formats the very value the browser reads
        return Math.round(1000 * Percent.of(part, whole)) / 1000.0;
    }

    /** Characters one kernel row takes in the page, measured on up to 1,000 rows. */
    private static long rowChars(Map<Integer, List<Object[]>> byIteration, String[] fields) {
        DataBlock.Builder sample = new DataBlock.Builder("sample", fields);
        for (List<Object[]> rows : byIteration.values()) {
            for (Object[] r : rows) {
                if (sample.size() >= 1000) break;
                sample.row(r);
            }
            if (sample.size() >= 1000) break;
        }
        return sample.size() == 0 ? 1 : Math.max(1, sample.build().json().length() / sample.size());
    }

    /** The smallest power of two such that every stride-th iteration's rows number at most {@code maxRows}. */
    private static int stride(Map<Integer, List<Object[]>> byIteration, long maxRows) {
        if (byIteration.isEmpty()) return 1;
        int first = byIteration.keySet().iterator().next();
        for (int stride = 1; ; stride *= 2) {
            long rows = 0;
            int kept = 0;
            for (Map.Entry<Integer, List<Object[]>> e : byIteration.entrySet()) {
                if ((e.getKey() - first) % stride != 0) continue;
                rows += e.getValue().size();
                kept++;
            }
            if (rows <= maxRows || kept <= 1) return stride;
        }
    }
}
