package dlproflint.reporters.html;

import dlproflint.findings.Units;

import java.util.Locale;

/** Number formatting for the HTML report: the shared {@link Units}, plus how evidence numbers are shown. */
public final class Fmt {
    private Fmt() {
    }

    public static String duration(double ns) {
        return Units.duration(ns);
    }

    public static String pct(double p) {
        return Units.share(p);
    }

    public static String count(long n) {
        return Units.count(n);
    }

    /** Device memory. */
    public static String bytes(long b) {
        return Units.memory(b);
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
}
