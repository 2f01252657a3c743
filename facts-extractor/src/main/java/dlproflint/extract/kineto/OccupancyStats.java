package dlproflint.extract.kineto;

import dlproflint.facts.KernelOccupancy;
import dlproflint.facts.OccupancyEntry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The TensorBoard plugin's "Est. Achieved Occupancy" (kernel-time-weighted mean of Kineto's
 * {@code est. achieved occupancy %}) and "Est. SM Efficiency" (weighted min(blocks per SM, 1)) over the analysed
 * range, with the kernel names losing the most SM time. Collective kernels are left out: their few blocks are a
 * design choice, not a launch configuration to fix.
 */
final class OccupancyStats {
    private static final int LISTED = 5;

    private OccupancyStats() {
    }

    /** The fact, or null when no kernel of the range carries the estimates. */
    static KernelOccupancy of(GpuStreams s, KinetoAggregator a) {
        KinetoAggregator.GpuColumns kernels = a.kernels;
        List<String> names = a.names;
        long count = 0;
        long ns = 0;
        double occWeighted = 0;
        double effWeighted = 0;
        long underOne = 0;
        Map<Integer, double[]> byName = new HashMap<>(); // name -> {calls, ns, occ*ns, blocks*ns, min(blocks,1)*ns}
        for (int i = 0; i < s.size(); i++) {
            if (s.table(i) != GpuStreams.KERNEL) continue;
            int row = s.rowOf(i);
            int occ = kernels.occupancy.get(row);
            float perSm = Float.intBitsToFloat(kernels.blocksPerSm.get(row));
            // collectives use a few blocks by design (NCCL sizes its grid to its channels, not to the GPU)
            if (occ < 0 || perSm < 0 || a.collectiveKernel(s.nameIndex(i))) continue;
            long d = s.duration(i);
            count++;
            ns += d;
            occWeighted += (double) occ * d;
            effWeighted += Math.min(1.0, perSm) * d;
            if (perSm < 1.0) underOne += d;
            double[] e = byName.computeIfAbsent(s.nameIndex(i), k -> new double[5]);
            e[0]++;
            e[1] += d;
            e[2] += (double) occ * d;
            e[3] += perSm * d;
            e[4] += Math.min(1.0, perSm) * d;
        }
        if (count == 0 || ns == 0) return null;
        List<Map.Entry<Integer, double[]>> entries = new ArrayList<>(byName.entrySet());
        // SM time lost: the kernel's time × the share of SMs its blocks could not fill
        entries.sort((x, y) -> {
            int c = Double.compare(lost(y.getValue()), lost(x.getValue()));
            return c != 0 ? c : names.get(x.getKey()).compareTo(names.get(y.getKey()));
        });
        List<OccupancyEntry> lowest = new ArrayList<>();
        for (Map.Entry<Integer, double[]> e : entries) {
            double[] v = e.getValue();
            if (lowest.size() == LISTED || lost(v) <= 0) break;
            String name = names.get(e.getKey());
            lowest.add(new OccupancyEntry(dlproflint.facts.KernelNames.display(KinetoFactsBuilder.shortName(name), name), (long) v[0], (long) v[1],
                    v[2] / v[1], v[3] / v[1]));
        }
        return new KernelOccupancy(count, ns, occWeighted / ns, 100.0 * effWeighted / ns, underOne, lowest);
    }

    private static double lost(double[] v) {
        return v[1] - v[4];
    }
}
