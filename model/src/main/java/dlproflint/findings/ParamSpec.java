package dlproflint.findings;

import java.util.List;

/**
 * A rule parameter as its rule declares it (the DRL's {@code @params} annotation is the only place it is written):
 * {@code @params({"percent minIdlePct = 5: fire when ...", "duration(us) minGpuTimeUs = 0: ...", "count(steps) minSteps = 2: ..."})}.
 *
 * @param name         parameter name, {@code [A-Za-z][A-Za-z0-9_]*}
 * @param type         what it holds; overrides are checked against it
 * @param unit         its unit ({@code %} for percentages, the time unit of a duration, what a count counts), or empty
 * @param defaultValue the default of a numeric parameter (NaN for a list)
 * @param defaultList  the default of a list parameter (empty for a number)
 * @param description  what it bounds and why the default, in one sentence
 */
public record ParamSpec(String name, ParamType type, String unit, double defaultValue, List<String> defaultList,
                        String description) implements java.io.Serializable {
    public ParamSpec {
        unit = unit == null ? "" : unit;
        defaultList = defaultList == null ? List.of() : List.copyOf(defaultList);
    }

    /** An untyped number without a unit. */
    public ParamSpec(String name, double defaultValue, String description) {
        this(name, ParamType.NUMBER, "", defaultValue, List.of(), description);
    }

    /** The default as configuration writes it: a number, or a list of names. */
    public Object defaultObject() {
        return type == ParamType.LIST ? defaultList : (Object) defaultValue;
    }

    /** The default for people: {@code 5}, {@code 2.5}, {@code [a, b]}. */
    public String defaultText() {
        return type == ParamType.LIST ? defaultList.toString() : Units.num(defaultValue);
    }

    /** The type for people: {@code percent}, {@code duration (us)}, {@code count (steps)}. */
    public String typeText() {
        return type.label() + (unit.isEmpty() || type == ParamType.PERCENT ? "" : " (" + unit + ")");
    }
}
