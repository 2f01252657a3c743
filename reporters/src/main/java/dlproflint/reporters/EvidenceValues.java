package dlproflint.reporters;

import java.lang.reflect.Array;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a finding's evidence map into plain JSON-able values (String, Long, Double, Boolean, List,
 * ordered Map, null), whatever a rule put in it: records become maps of their components, enums
 * their name, non-finite doubles the strings {@code NaN}/{@code Infinity}, anything else its
 * {@code toString()}. Reporters serialise the result without ever failing on a rule's value.
 */
public final class EvidenceValues {
    private static final int MAX_DEPTH = 8;

    private EvidenceValues() {
    }

    public static Map<String, Object> normalize(Map<String, ?> evidence) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (evidence != null) evidence.forEach((k, v) -> out.put(String.valueOf(k), value(v, 0)));
        return out;
    }

    private static Object value(Object v, int depth) {
        if (v == null) return null;
        if (depth > MAX_DEPTH) return v.toString();
        if (v instanceof String || v instanceof Boolean || v instanceof Long || v instanceof Integer
                || v instanceof Short || v instanceof Byte) {
            return v instanceof Number n && !(v instanceof Long) ? n.longValue() : v;
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            return Double.isFinite(d) ? d : Double.toString(d);
        }
        if (v instanceof Number n) return n.toString();
        if (v instanceof CharSequence || v instanceof Character) return v.toString();
        if (v instanceof Enum<?> e) return e.name();
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(String.valueOf(k), value(x, depth + 1)));
            return out;
        }
        if (v instanceof Collection<?> c) {
            List<Object> out = new ArrayList<>(c.size());
            for (Object x : c) out.add(value(x, depth + 1));
            return out;
        }
        if (v.getClass().isArray()) {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < Array.getLength(v); i++) out.add(value(Array.get(v, i), depth + 1));
            return out;
        }
        if (v instanceof Record r) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (RecordComponent c : r.getClass().getRecordComponents()) {
                try {
                    out.put(c.getName(), value(c.getAccessor().invoke(r), depth + 1));
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return r.toString();
                }
            }
            return out;
        }
        return v.toString();
    }
}
