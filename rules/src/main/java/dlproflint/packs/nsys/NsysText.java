package dlproflint.packs.nsys;

import dlproflint.findings.Units;
import dlproflint.facts.GpuGap;

import java.util.List;

/** Helpers of the nsys pack's rules (number formats are {@link dlproflint.findings.Units}). */
public final class NsysText {
    private NsysText() {
    }

    /** A parameter that is a count (thresholds arrive as doubles). */
    public static int whole(double v) {
        return (int) Math.round(v);
    }

    public static GpuGap largest(List<?> gaps) {
        GpuGap best = null;
        for (Object o : gaps) {
            GpuGap g = (GpuGap) o;
            if (best == null || g.durationNs() > best.durationNs()) best = g;
        }
        return best;
    }

    public static long totalGapNs(List<?> gaps) {
        long t = 0;
        for (Object o : gaps) t += ((GpuGap) o).durationNs();
        return t;
    }
}
