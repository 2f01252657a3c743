package dlproflint.cli.config;

import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * A {@code packs:} entry: a version pin ({@code dlprof: 1.0.0}) or {@code false} to disable the pack
 * ({@code true} just keeps it enabled, unpinned).
 */
public record PackSetting(boolean enabled, String version) {

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static PackSetting fromYaml(Object value) {
        if (value instanceof Boolean b) return new PackSetting(b, null);
        if (value instanceof String s && !s.isBlank()) return new PackSetting(true, s.trim());
        if (value instanceof Number n) return new PackSetting(true, n.toString());
        throw new IllegalArgumentException("a pack entry must be a version (\"1.0.0\") or false, not " + describe(value));
    }

    private static String describe(Object value) {
        if (value == null) return "empty";
        if (value instanceof java.util.Map) return "a mapping";
        if (value instanceof java.util.List) return "a list";
        return "'" + value + "'";
    }
}
