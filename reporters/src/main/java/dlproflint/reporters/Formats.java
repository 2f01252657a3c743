package dlproflint.reporters;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/** Locale-independent number, duration and evidence formatting shared by the human-readable reports. */
public final class Formats {
    private Formats() {
    }

    /** At most {@code decimals} decimals, trailing zeros dropped: 79.10 → "79.1", 3.0 → "3". */
    public static String number(double v, int decimals) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return Double.toString(v);
        BigDecimal d = BigDecimal.valueOf(v).setScale(decimals, RoundingMode.HALF_UP).stripTrailingZeros();
        if (d.signum() == 0) return "0";
        return d.toPlainString();
    }

    /** Always one decimal, as DLProf prints percentages: 0.02 → "0.0%", 42.5 → "42.5%". */
    public static String pct(double v) {
        if (!Double.isFinite(v)) return Double.toString(v) + "%";
        return String.format(Locale.ROOT, "%.1f%%", v);
    }

    /** A duration in the largest unit that keeps it at or above 1: "1.23 s", "456.7 ms", "12 µs", "800 ns". */
    public static String duration(double ns) {
        double a = Math.abs(ns);
        if (a >= 1e9) return String.format(Locale.ROOT, "%s s", number(ns / 1e9, 3));
        if (a >= 1e6) return String.format(Locale.ROOT, "%s ms", number(ns / 1e6, 2));
        if (a >= 1e3) return String.format(Locale.ROOT, "%s µs", number(ns / 1e3, 1));
        return number(ns, 0) + " ns";
    }

    /** One evidence value as text: numbers without exponent noise, lists and maps in brackets. */
    public static String value(Object v) {
        if (v == null) return "null";
        if (v instanceof Double || v instanceof Float) return number(((Number) v).doubleValue(), 4);
        if (v instanceof Number || v instanceof Boolean) return v.toString();
        if (v instanceof Collection<?> c) {
            StringJoiner j = new StringJoiner(", ", "[", "]");
            for (Object o : c) j.add(value(o));
            return j.toString();
        }
        if (v instanceof Map<?, ?> m) {
            StringJoiner j = new StringJoiner(", ", "{", "}");
            for (Map.Entry<?, ?> e : m.entrySet()) j.add(e.getKey() + "=" + value(e.getValue()));
            return j.toString();
        }
        return v.toString();
    }
}
