package dlproflint.packs.pytorch;

import dlproflint.facts.KernelOccupancy;
import dlproflint.facts.OccupancyEntry;
import dlproflint.findings.Units;

/** Message text about kernel launch configurations. */
public final class Occupancy {
    private Occupancy() {
    }

    /** {@code "; most SM time lost in reduce_kernel (24.1 ms, 0.92 blocks per SM, 6% occupancy)"}, or empty. */
    public static String lowest(KernelOccupancy o) {
        if (o.lowest().isEmpty()) return "";
        OccupancyEntry e = o.lowest().get(0);
        return "; most SM time lost in " + e.kernel() + " (" + Units.duration(e.gpuNs()) + ", "
                + String.format(java.util.Locale.ROOT, "%.2f", e.blocksPerSm()) + " blocks per SM, "
                + Units.pct(e.occupancyPct()) + " occupancy)";
    }
}
