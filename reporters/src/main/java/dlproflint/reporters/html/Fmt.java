package dlproflint.reporters.html;

import java.util.Locale;

/** Number formatting for the report: fixed locale, so reports are identical on every machine. */
public final class Fmt {
    private Fmt() {
    }

    /**
     * A duration in ns with a unit chosen by magnitude: {@code 850 ns}, {@code 12.3 µs}, {@code 4.56 ms}, {@code 13.2 s}.
     * Rounding is {@link Math#round} on the scaled value, which the report's script repeats bit for bit, so a
     * cell formatted in the browser reads exactly like the same cell rendered here.
     */
    public static String duration(double ns) {
        double a = Math.abs(ns);
        if (a < 1_000) return Math.round(ns) + " ns";
        if (a < 1_000_000) return sig(ns / 1e3) + " µs";
        if (a < 1_000_000_000) return sig(ns / 1e6) + " ms";
        return sig(ns / 1e9) + " s";
    }

    /** Three significant digits: 123, 12.3, 4.56. */
    private static String sig(double v) {
        double a = Math.abs(v);
        if (a >= 100) return Long.toString(Math.round(v));
        if (a >= 10) return fixed(v, 1);
        return fixed(v, 2);
    }

    /** {@code v} with 1 or 2 decimals, rounded by {@link Math#round} on {@code v * 10^decimals}. */
    static String fixed(double v, int decimals) {
        long scale = decimals == 1 ? 10 : 100;
        long r = Math.round(v * scale);
        long abs = Math.abs(r);
        String frac = Long.toString(abs % scale);
        if (decimals == 2 && frac.length() < 2) frac = "0" + frac;
        return (r < 0 ? "-" : "") + abs / scale + "." + frac;
    }

    /** A percentage with one decimal: {@code 87.5 %}. */
    public static String pct(double p) {
        if (Double.isNaN(p)) return "\u2014";
        // a tiny non-zero share must not read as zero (a GPU busy 0.02 % of the time is not idle)
        if (p > 0 && p < 0.05) return p < 0.01 ? "< 0.01 %" : fixed(p, 2) + " %";
        return fixed(p, 1) + " %";
    }

    /** A count with thousands separators: {@code 1,234,567}. */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** Bytes in binary units: {@code 31.7 GiB}. */
    public static String bytes(long b) {
        if (b < 1024) return b + " B";
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = b;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%s %s", sig(v), units[u]);
    }

    /** A generic evidence value: integers grouped, fractions to at most 3 decimals. */
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

    /** A value in a machine-sortable form for {@code data-sort} attributes. */
    public static String sortKey(double v) {
        return String.format(Locale.ROOT, "%.6f", v);
    }
}
