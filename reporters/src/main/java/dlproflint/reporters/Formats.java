package dlproflint.reporters;

import dlproflint.findings.Units;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Collection;
import java.util.Map;
import java.util.StringJoiner;

/** Number and evidence formatting of the human-readable reports; durations and shares are the shared {@link Units}. */
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

    public static String pct(double v) {
        return Units.pct(v);
    }

    public static String duration(double ns) {
        return Units.duration(ns);
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
