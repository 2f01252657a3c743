package dlproflint.packs.nsys;

import dlproflint.facts.GpuGap;
import dlproflint.packs.dlprof.Fmt;

import java.util.List;
import java.util.Locale;

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

    /** {@code 259,160 bytes}, {@code 1.2 MB}, {@code 3.4 GB} (decimal units, as nsys prints sizes). */
    public static String bytes(long b) {
        if (b < 1_000_000) return String.format(Locale.ROOT, "%,d bytes", b);
        if (b < 1_000_000_000) return String.format(Locale.ROOT, "%.1f MB", b / 1e6);
        return String.format(Locale.ROOT, "%.2f GB", b / 1e9);
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
