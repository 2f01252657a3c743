package dlproflint.findings;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a rule reports as its problem: the id of one of the messages it declares ({@code @messages}) and the data its
 * placeholders read, {@code Message.of("gpu-idle", "category", cat)}. A placeholder the data lacks is read from the
 * finding's evidence, so a number is written once. The engine renders the text; findings keep id and data.
 *
 * @param id   the declared message's id
 * @param data placeholder name → value, in the order given
 */
public record Message(String id, Map<String, Object> data) {
    public Message {
        data = data == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(data));
    }

    /** {@code Message.of("id", "name1", value1, "name2", value2, ...)}. */
    public static Message of(String id, Object... nameValues) {
        if (nameValues.length % 2 != 0) throw new IllegalArgumentException("message '" + id + "' data needs name/value pairs");
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < nameValues.length; i += 2) m.put(String.valueOf(nameValues[i]), nameValues[i + 1]);
        return new Message(id, m);
    }
}
