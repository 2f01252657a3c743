package dlproflint.reporters.html;

import java.util.Locale;

/** Number formatting for the report: fixed locale, so reports are identical on every machine. */
public final class Fmt {
    private Fmt() {
    }

    /** A duration in ns with a unit chosen by magnitude: {@code 850 ns}, {@code 12.3 µs}, {@code 4.56 ms}, {@code 13.2 s}. */
    public static String duration(double ns) {
        double a = Math.abs(ns);
        if (a < 1_000) return String.format(Locale.ROOT, "%.0f ns", ns);
        if (a < 1_000_000) return String.format(Locale.ROOT, "%s µs", sig(ns / 1e3));
        if (a < 1_000_000_000) return String.format(Locale.ROOT, "%s ms", sig(ns / 1e6));
        return String.format(Locale.ROOT, "%s s", sig(ns / 1e9));
    }

    /** Three significant digits, without needless trailing zeros' effect on width (12.3, 4.56, 123). */
    private static String sig(double v) {
        double a = Math.abs(v);
        if (a >= 100) return String.format(Locale.ROOT, "%.0f", v);
        if (a >= 10) return String.format(Locale.ROOT, "%.1f", v);
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** A percentage with one decimal: {@code 87.5 %}. */
    public static String pct(double p) {
        if (Double.isNaN(p)) return "\u2014";
        // a tiny non-zero share must not read as zero (a GPU busy 0.02 % of the time is not idle)
        if (p > 0 && p < 0.05) return p < 0.01 ? "< 0.01 %" : String.format(Locale.ROOT, "%.2f %%", p);
        return String.format(Locale.ROOT, "%.1f %%", p);
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
