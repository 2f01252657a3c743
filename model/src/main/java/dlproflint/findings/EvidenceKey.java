package dlproflint.findings;

import java.util.Locale;

/**
 * One evidence key a rule declares ({@code @evidence({"gpuIdleNs: duration", "calls: text", ...})}): reports and
 * scripts read evidence by these keys, so a rule may report no other, and each value must be of its type.
 *
 * @param key  {@code [A-Za-z][A-Za-z0-9_]*}
 * @param type what the value is
 */
public record EvidenceKey(String key, Type type) implements java.io.Serializable {
    /** Evidence value types; the numeric ones say what the number measures. */
    public enum Type {
        /** a whole number of things */
        COUNT,
        /** a number without a more specific meaning (a ratio, a threshold, an id) */
        NUMBER,
        /** a share, 0-100 */
        PERCENT,
        /** nanoseconds */
        DURATION,
        /** a size in bytes */
        BYTES,
        /** a text (a name, a category, "unknown") */
        TEXT,
        /** true or false, or "unknown" when the profile does not record it */
        FLAG,
        /** a list */
        LIST;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Type parse(String s) {
            for (Type t : values()) if (t.label().equals(s)) return t;
            throw new IllegalArgumentException("unknown evidence type '" + s
                    + "' (count, number, percent, duration, bytes, text, flag, list)");
        }

        /** Whether {@code v} is a value of this type (null stands for "not measured" in every type). */
        public boolean accepts(Object v) {
            if (v == null) return true;
            return switch (this) {
                case COUNT, BYTES -> v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue());
                case NUMBER, PERCENT, DURATION -> v instanceof Number;
                case TEXT -> !(v instanceof java.util.Collection<?>) && !(v instanceof java.util.Map<?, ?>);
                case FLAG -> v instanceof Boolean || "unknown".equals(v);
                case LIST -> v instanceof java.util.Collection<?>;
            };
        }
    }
}
