package dlproflint.reporters.dlprof;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** DLProf's number formatting. */
final class Decimals {
    private Decimals() {
    }

    /**
     * The value rounded to one decimal and printed with exactly one decimal, as DLProf prints
     * averages and percentages ({@code 2840562182.0}, {@code 10686.3}, {@code 79.1}). Rounding is
     * half-even on the exact binary value (Python's {@code round(x, 1)}), never scientific notation.
     */
    static BigDecimal round1(double value) {
        return new BigDecimal(value).setScale(1, RoundingMode.HALF_EVEN);
    }

    static String oneDecimal(double value) {
        if (Double.isNaN(value)) return "nan";
        if (Double.isInfinite(value)) return value > 0 ? "inf" : "-inf";
        BigDecimal r = round1(value);
        // new BigDecimal(-0.04) rounds to -0.0; DLProf never prints negative zero
        if (r.signum() == 0) return "0.0";
        return r.toPlainString();
    }

    /** total / n, 0 when n is 0 (DLProf prints 0.0 for the average of nothing). */
    static double ratio(long total, long n) {
        return n == 0 ? 0.0 : (double) total / n;
    }

    /** 100 * part / whole for a part of the whole, 0 when whole is 0 (0..100, see {@link dlproflint.facts.Percent}). */
    static double percent(long part, long whole) {
        return dlproflint.facts.Percent.of(part, whole);
    }
}
