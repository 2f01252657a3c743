package dlproflint.findings;

import java.util.Locale;

/** Finding severity, ordered from least to most severe; maps 1:1 to SARIF {@code level}. */
public enum Severity {
    NOTE, WARNING, ERROR;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code error|warning|note} (any case); throws IllegalArgumentException naming the value. */
    public static Severity parse(String s) {
        if (s != null) {
            for (Severity v : values()) {
                if (v.label().equalsIgnoreCase(s.trim())) return v;
            }
        }
        throw new IllegalArgumentException("unknown severity '" + s + "' (expected error, warning or note)");
    }

    public boolean atLeast(Severity other) {
        return compareTo(other) >= 0;
    }
}
