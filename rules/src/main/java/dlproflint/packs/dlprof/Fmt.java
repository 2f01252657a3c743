package dlproflint.packs.dlprof;

import dlproflint.findings.Units;

/**
 * Number formatting for finding messages, the short names DRL rules call; the formats themselves are
 * {@link Units}, shared with every report.
 */
public final class Fmt {
    private Fmt() {
    }

    /** A duration in the largest unit that keeps it readable: {@code 850 ns}, {@code 573 µs}, {@code 12.3 ms}, {@code 2.84 s}. */
    public static String duration(double ns) {
        return Units.duration(ns);
    }

    /** A share in percent with one decimal, as DLProf prints it: {@code 79.1%}. */
    public static String pct(double pct) {
        return Units.pct(pct);
    }

    /** A number without a trailing {@code .0} when it is whole (thresholds come in as doubles). */
    public static String num(double v) {
        return Units.num(v);
    }

    /** {@code 259,160 bytes}, {@code 192.7 MB} (decimal units, as nsys prints sizes). */
    public static String bytes(long b) {
        return Units.bytes(b);
    }

    /** {@code 1 op} / {@code 5 ops}. */
    public static String count(long n, String singular, String plural) {
        return n + " " + (n == 1 ? singular : plural);
    }

    /** DLProf's agreement: {@code was} / {@code were}. */
    public static String was(long n) {
        return n == 1 ? "was" : "were";
    }

    /** An optional setting for evidence: the value, or {@code "unknown"} when the profile does not record it. */
    public static Object opt(Object v) {
        return v == null ? "unknown" : v;
    }
}
