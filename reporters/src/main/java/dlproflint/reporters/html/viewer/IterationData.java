package dlproflint.reporters.html.viewer;

import dlproflint.facts.Iteration;
import dlproflint.facts.IterationKernel;
import dlproflint.reporters.html.table.DataBlock;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The iteration blocks of a profile: one row per iteration (DLProf's Iteration Summary), the kernel rows of
 * each aggregated iteration ({@link IterationKernel}, for Kernels by Iteration) and their per-op totals (for
 * Kernels by Op). When there are more kernel rows than {@link #MAX_KERNEL_ROWS}, whole iterations are kept,
 * every n-th one from the first, as the readers do.
 */
final class IterationData {
    /** Most per-iteration kernel rows embedded (about 3 MB of the page). */
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

    static IterationData of(String pid, RowIndex index, List<IterationKernel> facts, FindingRefs refs) {
        // kernel rows by iteration, resolved to embedded kernels (rows of kernels not embedded are left out)
        Map<Integer, List<long[]>> byIteration = new TreeMap<>();
        Map<Integer, long[]> tcLaunches = new HashMap<>(); // iteration → {tc launches, all launches}
        for (IterationKernel ik : facts) {
            Integer it = index.iteration(ik.iteration());
            long[] n = tcLaunches.computeIfAbsent(ik.iteration(), x -> new long[2]);
            n[1] += ik.calls();
            if (ik.usesTc()) n[0] += ik.calls();
            Integer k = index.kernel(ik.opId(), ik.name(), ik.deviceId());
            if (it == null || k == null) continue;
            Integer op = index.op(ik.opId());
            long offset = ik.firstStartNs() - index.iterations.get(it).startNs();
            byIteration.computeIfAbsent(ik.iteration(), x -> new ArrayList<>())
                    .add(new long[] {ik.iteration(), k, op == null ? -1 : op, offset, ik.calls(), ik.gpuTimeNs(),
                            ik.usesTc() ? 1 : 0});
        }
        int stride = stride(byIteration);
        int first = byIteration.isEmpty() ? 0 : byIteration.keySet().iterator().next();
        DataBlock.Builder kb = new DataBlock.Builder(pid + "-d-ik", "it", "k", "op", "off", "calls", "gpu");
        Map<String, long[]> perOp = new LinkedHashMap<>(); // it, op, start, launches, tc launches, gpu, tc gpu
        int embedded = 0;
        for (Map.Entry<Integer, List<long[]>> e : byIteration.entrySet()) {
            if ((e.getKey() - first) % stride != 0) continue;
            if (kb.size() >= MAX_KERNEL_ROWS) break; // only when one iteration alone has more rows
            embedded++;
            for (long[] r : e.getValue()) {
                if (kb.size() >= MAX_KERNEL_ROWS) break;
                kb.row((int) r[0], (int) r[1], r[2] < 0 ? null : (int) r[2], r[3], r[4], r[5]);
                long[] o = perOp.computeIfAbsent(r[0] + ":" + r[2], x -> new long[] {r[0], r[2], Long.MAX_VALUE, 0, 0, 0, 0});
                o[2] = Math.min(o[2], r[3]);
                o[3] += r[4];
                o[5] += r[5];
                if (r[6] == 1) {
                    o[4] += r[4];
                    o[6] += r[5];
                }
            }
        }
        DataBlock.Builder ob = new DataBlock.Builder(pid + "-d-itops", "it", "op", "start", "kernels", "tck", "gpu", "tc");
        perOp.values().stream()
                .sorted((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[2], b[2]))
                .forEach(o -> ob.row((int) o[0], o[1] < 0 ? null : (int) o[1], o[2], o[3], o[4], o[5], o[6]));
        int gpus = index.usedGpus();
        DataBlock.Builder ib = new DataBlock.Builder(pid + "-d-its", "it", "agg", "start", "dur", "kernels", "tck",
                "gpu", "gpuAvg", "gpuPct", "tc", "tcAvg", "tcPct", "mem", "findings");
        for (int i = 0; i < index.iterations.size(); i++) {
            Iteration it = index.iterations.get(i);
            long dur = Math.max(0, it.durationNs());
            long[] n = tcLaunches.get(it.index());
            // the TC launch count is known only when the iteration's kernel rows account for all its launches
            Long tck = n != null && n[1] == it.kernelCount() ? n[0] : null;
            double gpuAvg = (double) it.gpuTimeNs() / gpus;
            double tcAvg = (double) it.tcTimeNs() / gpus;
            ib.row(it.index(), it.aggregated(), it.startNs(), dur, it.kernelCount(), tck, it.gpuTimeNs(),
                    Math.round(gpuAvg), pct(gpuAvg, dur), it.tcTimeNs(), Math.round(tcAvg), pct(tcAvg, dur),
                    it.memoryTimeNs(), refs.findings(FindingRefs.Kind.ITERATION, i));
        }
        return new IterationData(ib.build(), kb.build(), ob.build(), byIteration.size(), embedded, stride);
    }

    private static double pct(double part, long whole) {
        return whole <= 0 ? 0 : Math.round(1000.0 * part / whole) / 10.0;
    }

    /** The smallest power of two such that every stride-th iteration's rows fit {@link #MAX_KERNEL_ROWS}. */
    private static int stride(Map<Integer, List<long[]>> byIteration) {
        if (byIteration.isEmpty()) return 1;
        int first = byIteration.keySet().iterator().next();
        for (int stride = 1; ; stride *= 2) {
            long rows = 0;
            int kept = 0;
            for (Map.Entry<Integer, List<long[]>> e : byIteration.entrySet()) {
                if ((e.getKey() - first) % stride != 0) continue;
                rows += e.getValue().size();
                kept++;
            }
            if (rows <= MAX_KERNEL_ROWS || kept <= 1) return stride;
        }
    }
}
