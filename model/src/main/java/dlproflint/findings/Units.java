package dlproflint.findings;

import java.util.Locale;

/**
 * The one way durations, shares, byte sizes and counts are written for people: in finding messages (the rules'
 * helpers delegate here) and in every report. Locale-independent, so output is identical on every machine and
 * in CI logs.
 */
public final class Units {
    private Units() {
    }

    /** A duration in the largest unit that keeps it readable: {@code 850 ns}, {@code 573 µs}, {@code 12.3 ms}, {@code 2.84 s}. */
    public static String duration(double ns) {
        if (!Double.isFinite(ns)) return Double.toString(ns);
        double a = Math.abs(ns);
        if (a < 1_000) return String.format(Locale.ROOT, "%.0f ns", ns);
        if (a < 1_000_000) return String.format(Locale.ROOT, "%.0f µs", ns / 1e3);
        if (a < 1_000_000_000) return String.format(Locale.ROOT, "%.1f ms", ns / 1e6);
        return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
    }

    /** A share in percent with one decimal, as DLProf prints it in its reports and messages: {@code 79.1%}. */
    public static String pct(double pct) {
        if (!Double.isFinite(pct)) return "n/a";
        return String.format(Locale.ROOT, "%.1f%%", pct);
    }

    /**
     * A share for dashboards, where a tiny non-zero share must not read as zero (a GPU busy 0.02% of the time is
     * not idle): {@link #pct} except {@code 0.02%} and {@code <0.01%} below 0.05%.
     */
    public static String share(double pct) {
        if (pct > 0 && pct < 0.05) return pct < 0.01 ? "<0.01%" : String.format(Locale.ROOT, "%.2f%%", pct);
        return pct(pct);
    }

    /** A data size in decimal units, as nsys prints sizes: {@code 259,160 bytes} under 1 MB, else {@code 1.2 MB}, {@code 3.40 GB}. */
    public static String bytes(long b) {
        if (b < 1_000_000) return String.format(Locale.ROOT, "%,d bytes", b);
        if (b < 1_000_000_000) return String.format(Locale.ROOT, "%.1f MB", b / 1e6);
        return String.format(Locale.ROOT, "%.2f GB", b / 1e9);
    }

    /** A memory capacity in binary units, as nvidia-smi prints device memory: {@code 15.9 GiB}, {@code 512.0 MiB}. */
    public static String memory(long b) {
        if (b < 1024) return b + " B";
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = b;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** A count with thousands separators: {@code 1,234,567}. */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A count and its noun: {@code 1 op}, {@code 5 ops}. */
    public static String count(long n, String singular, String plural) {
        return n + " " + (n == 1 ? singular : plural);
    }

    /** An evidence value for a table: integers grouped ({@code 1,234}), fractions to at most 3 decimals. */
    public static String number(Number n) {
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) return String.valueOf(d);
            if (d == Math.rint(d) && Math.abs(d) < 1e15) return count((long) d);
            String s = String.format(Locale.ROOT, "%,.3f", d);
            s = s.replaceAll("0+$", "");
            return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
        }
        return count(n.longValue());
    }

    /** A number without a trailing {@code .0} when it is whole (thresholds come in as doubles), else two decimals. */
    public static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /**
     * What a finding costs, for people, the way every report leads with it: {@link #impactLost}, then
     * {@code ; }{@link #impactSaving} when the rule expects a fix to recover clearly less:
     * {@code ≈ 109.5 ms/step, 51.2% of the step; a fix recovers ≈ 57.5 ms/step (26.9%)}.
     */
    public static String impact(Impact i) {
        if (i == null) return null;
        String saving = impactSaving(i);
        return impactLost(i) + (saving == null ? "" : "; " + saving);
    }

    /** {@code ≈ 41.0 ms/step, 18.0% of the step}, or {@code ≈ 1.20 s, 18.0% of the run} without steps; null without an impact. */
    public static String impactLost(Impact i) {
        if (i == null) return null;
        boolean step = i.basis() == Impact.Basis.STEP;
        return "≈ " + duration(i.lostNs()) + (step ? "/step" : "") + ", " + share(i.sharePct()) + " of the " + (step ? "step" : "run");
    }

    /** {@code a fix recovers ≈ 20.5 ms/step (9.0%)} when that is clearly less than the loss (under 95% of it), else null. */
    public static String impactSaving(Impact i) {
        if (i == null || i.savingNs() >= 0.95 * i.lostNs()) return null;
        return "a fix recovers ≈ " + duration(i.savingNs()) + (i.basis() == Impact.Basis.STEP ? "/step" : "")
                + " (" + share(i.savingPct()) + ")";
    }
}
