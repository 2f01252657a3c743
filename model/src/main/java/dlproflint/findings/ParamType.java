package dlproflint.findings;

import java.util.Locale;

/**
 * What kind of value a rule parameter holds; the declaration ({@code @params}) names it, the configuration's
 * override is checked against it and the help page's parameter table shows it.
 */
public enum ParamType {
    /** any finite number */
    NUMBER,
    /** a share, 0 to 100 */
    PERCENT,
    /** a time span, non-negative, in the unit the declaration names ({@code ns}, {@code us}, {@code ms}, {@code s}) */
    DURATION,
    /** a whole number, 0 or more */
    COUNT,
    /** a list of names */
    LIST;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ParamType parse(String s) {
        for (ParamType t : values()) if (t.label().equals(s)) return t;
        throw new IllegalArgumentException("unknown parameter type '" + s + "' (number, percent, duration, count, list)");
    }

    /** Why {@code value} is not a valid value of this type, or null when it is. */
    public String invalid(Object value) {
        if (this == LIST) {
            if (value instanceof java.util.List<?> l && l.stream().allMatch(x -> x instanceof String)) return null;
            return "a list of names";
        }
        if (!(value instanceof Number n) || !Double.isFinite(n.doubleValue())) return "a number";
        double v = n.doubleValue();
        return switch (this) {
            case PERCENT -> v < 0 || v > 100 ? "a percentage from 0 to 100" : null;
            case DURATION -> v < 0 ? "a duration of 0 or more" : null;
            case COUNT -> v < 0 || v != Math.rint(v) ? "a whole number of 0 or more" : null;
            default -> null;
        };
    }
}
