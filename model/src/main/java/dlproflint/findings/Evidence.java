package dlproflint.findings;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds the ordered evidence map of a finding from key/value pairs: {@code Evidence.of("a", 1, "b", 2.5)}. */
public final class Evidence {
    private Evidence() {
    }

    /** A setting the profile may not record, as evidence: the value, or {@code "unknown"}. */
    public static Object orUnknown(Object v) {
        return v == null ? "unknown" : v;
    }

    public static Map<String, Object> of(Object... keyValues) {
        if (keyValues.length % 2 != 0) throw new IllegalArgumentException("evidence needs key/value pairs");
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(String.valueOf(keyValues[i]), keyValues[i + 1]);
        }
        return Collections.unmodifiableMap(m);
    }
}
