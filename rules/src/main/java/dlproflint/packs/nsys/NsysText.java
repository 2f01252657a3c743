package dlproflint.packs.nsys;

import dlproflint.facts.GpuGap;
import dlproflint.packs.dlprof.Fmt;

import java.util.List;

/** Message helpers of the nsys pack; number formats are shared with the dlprof pack ({@link Fmt}). */
public final class NsysText {
    private NsysText() {
    }

    public static String duration(double ns) {
        return Fmt.duration(ns);
    }

    public static String pct(double pct) {
        return Fmt.pct(pct);
    }

    public static String num(double v) {
        return Fmt.num(v);
    }

    /** A parameter that is a count (thresholds arrive as doubles). */
    public static int whole(double v) {
        return (int) Math.round(v);
    }

    public static String bytes(long b) {
        return Fmt.bytes(b);
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
