package dlproflint.engine.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dlproflint.facts.Direction;
import dlproflint.facts.JobFacts;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.Stat;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Turns a partial ProfileFacts document (the {@code facts:} of a test case) into {@link ProfileFacts}.
 * Only what a case is about needs writing; everything else takes a default:
 * <ul>
 *   <li>a missing singleton ({@code system}, {@code iterationSummary}, {@code breakdown},
 *       {@code modelConfig}, {@code markers}) is the {@link ProfileFacts.Builder} default, and a
 *       partial one fills its missing fields from that default (so {@code iterationSummary: {total: 3}}
 *       keeps {@code keyNodeSource: none});</li>
 *   <li>{@code profile} defaults to path = the cases file, format {@code nsys-sqlite};</li>
 *   <li>a missing list is empty; a missing {@link Stat} is {@link Stat#EMPTY}; a bare number where a
 *       Stat is expected is one observation ({@code gpuTime: 308000});</li>
 *   <li>other missing fields are 0, false, null, or {@link Direction#NA}.</li>
 * </ul>
 * Field names are the record component names; an unknown field is an error naming the valid ones
 * (typos in fixtures must not silently produce an empty fact).
 */
public final class FactsYaml {
    private static final ObjectMapper LEAF = JsonMapper.builder()
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS).build();

    private final ClassLoader loader;

    public FactsYaml(ClassLoader loader) {
        this.loader = loader;
    }

    /** @param defaultPath profile path when the document has no {@code profile} */
    public ProfileFacts read(JsonNode doc, String defaultPath) {
        ProfileFacts defaults = ProfileFacts.builder()
                .profile(new ProfileInfo(defaultPath, "nsys-sqlite", null, null, 0, 0)).build();
        if (doc == null || doc.isNull() || doc.isMissingNode()) return defaults;
        return (ProfileFacts) read(doc, ProfileFacts.class, defaults, "facts");
    }

    /**
     * A partial {@link JobFacts} document (the {@code facts:} of a job-scope pack's case): {@code job} starts from
     * {@link JobFacts#empty} (label = the cases file) and a partial {@code job} keeps the defaults of the fields
     * it does not write; lists default to empty.
     */
    public JobFacts readJob(JsonNode doc, String defaultLabel) {
        JobFacts defaults = JobFacts.empty(defaultLabel);
        if (doc == null || doc.isNull() || doc.isMissingNode()) return defaults;
        return (JobFacts) read(doc, JobFacts.class, defaults, "facts");
    }

    private Object read(JsonNode node, Type type, Object base, String where) {
        Class<?> raw = rawClass(type);
        if (node == null || node.isNull()) return base != null ? base : defaultFor(raw);
        if (raw == Stat.class && node.isNumber()) return Stat.of(node.asLong());
        if (raw == List.class) {
            if (!node.isArray()) throw new IllegalArgumentException(where + ": expected a list");
            Type element = type instanceof ParameterizedType pt ? pt.getActualTypeArguments()[0] : Object.class;
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < node.size(); i++) out.add(read(node.get(i), element, null, where + "[" + i + "]"));
            return out;
        }
        if (raw.isRecord()) return readRecord(node, raw, base, where);
        try {
            return LEAF.convertValue(node, LEAF.constructType(type));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": cannot read " + node + " as " + raw.getSimpleName()
                    + (raw.isEnum() ? " (one of " + Arrays.toString(raw.getEnumConstants()) + ")" : ""));
        }
    }

    private Object readRecord(JsonNode node, Class<?> type, Object base, String where) {
        if (!node.isObject()) throw new IllegalArgumentException(where + ": expected a mapping of " + type.getSimpleName() + " fields");
        RecordComponent[] comps = type.getRecordComponents();
        List<String> names = Arrays.stream(comps).map(RecordComponent::getName).toList();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!names.contains(f)) {
                throw new IllegalArgumentException(where + "." + f + ": " + type.getSimpleName()
                        + " has no field '" + f + "' (fields: " + String.join(", ", names) + ")");
            }
        }
        Object[] args = new Object[comps.length];
        Class<?>[] types = new Class<?>[comps.length];
        for (int i = 0; i < comps.length; i++) {
            RecordComponent rc = comps[i];
            types[i] = rc.getType();
            Object baseValue = base == null ? null : invoke(rc, base);
            JsonNode child = node.get(rc.getName());
            if (child == null) {
                args[i] = base != null ? baseValue : defaultFor(rc.getType());
            } else {
                // a partial singleton or nested record starts from the base's value of that field
                args[i] = read(child, rc.getGenericType(), rc.getType().isRecord() ? baseValue : null, where + "." + rc.getName());
            }
        }
        try {
            Constructor<?> ctor = type.getDeclaredConstructor(types);
            return ctor.newInstance(args);
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(where + ": " + e.getCause().getMessage());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object invoke(RecordComponent rc, Object target) {
        try {
            return rc.getAccessor().invoke(target);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final Map<Class<?>, Object> DEFAULTS = Map.of(
            boolean.class, false, int.class, 0, long.class, 0L, double.class, 0.0, float.class, 0f,
            short.class, (short) 0, byte.class, (byte) 0, char.class, '\0',
            Stat.class, Stat.EMPTY, Direction.class, Direction.NA);

    private static Object defaultFor(Class<?> c) {
        if (c == List.class) return List.of();
        return DEFAULTS.get(c);
    }

    private static Class<?> rawClass(Type t) {
        if (t instanceof Class<?> c) return c;
        if (t instanceof ParameterizedType pt) return (Class<?>) pt.getRawType();
        return Object.class;
    }
}
