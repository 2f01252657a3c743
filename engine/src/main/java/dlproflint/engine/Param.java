package dlproflint.engine;

import java.util.List;

/**
 * A rule's parameter, inserted as a fact for every entry of its {@code @params} declaration, with the configuration's
 * override applied. A rule reads its own parameters by name, never by its id: the engine binds each {@code Param}
 * pattern to the rule it is written in, so {@code Param(name == "minSteps", $min : value)} matches that rule's
 * {@code minSteps} only. Reading a parameter the rule does not declare is a load error with the file and line.
 *
 * @param rule   the id of the rule that declares it (set by the engine; rules do not write it)
 * @param name   as declared
 * @param value  the number (a percentage 0-100, a duration in its declared unit, a count), NaN for a list
 * @param values the names of a list parameter, empty otherwise
 */
public record Param(String rule, String name, double value, List<String> values) {
    public Param {
        values = values == null ? List.of() : List.copyOf(values);
    }
}
