package dlproflint.packs.dlprof;

import java.util.Locale;

/**
 * Number formatting for finding messages, so every rule prints durations and shares the same way
 * ("573 µs", "2.84 s", "79.1%"). Locale-independent on purpose: messages end up in CI logs and SARIF.
 */
public final class Fmt {
    private Fmt() {
    }

    /** A duration in the largest unit that keeps it readable: {@code 850 ns}, {@code 573 µs}, {@code 12.3 ms}, {@code 2.84 s}. */
    public static String duration(double ns) {
        double a = Math.abs(ns);
        if (a < 1_000) return String.format(Locale.ROOT, "%.0f ns", ns);
        if (a < 1_000_000) return String.format(Locale.ROOT, "%.0f µs", ns / 1e3);
        if (a < 1_000_000_000) return String.format(Locale.ROOT, "%.1f ms", ns / 1e6);
        return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
    }

    /** A share in percent with one decimal, as DLProf prints it: {@code 79.1%}. */
    public static String pct(double pct) {
        return String.format(Locale.ROOT, "%.1f%%", pct);
    }

    /** A number without a trailing {@code .0} when it is whole (thresholds come in as doubles). */
    public static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
        return String.format(Locale.ROOT, "%.2f", v);
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
