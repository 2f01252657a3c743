package dlproflint.extract.kineto;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;

/**
 * Reads the trace's small metadata blocks ({@code deviceProperties}, {@code distributedInfo}) as trees, but
 * bounded: at most {@link TraceLimits#MAX_DEVICES} entries, {@link TraceLimits#MAX_FIELDS} scalar fields per
 * object, scalars cut at {@link TraceLimits#MAX_FIELD_CHARS}; nested values are skipped without building
 * anything. A {@code deviceProperties} of millions of empty objects used to be read as a tree of gigabytes.
 */
final class BoundedJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private BoundedJson() {
    }

    /** The current value (the parser is on its first token) as an array of bounded objects; anything else is skipped. */
    static ArrayNode array(JsonParser p, TraceHandler handler) throws IOException {
        ArrayNode out = NODES.arrayNode();
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return out;
        }
        long skipped = 0;
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY && t != null) {
            if (t == JsonToken.START_OBJECT && out.size() < TraceLimits.MAX_DEVICES) {
                out.add(object(p));
            } else {
                if (t == JsonToken.START_OBJECT) skipped++;
                p.skipChildren();
            }
        }
        if (skipped > 0) {
            handler.warning("device-properties-cut", "deviceProperties lists " + (out.size() + skipped) + " devices; only the first "
                    + TraceLimits.MAX_DEVICES + " are read");
        }
        return out;
    }

    /** The current value (the parser is on its first token) as an object of bounded scalars; anything else is skipped. */
    static ObjectNode object(JsonParser p) throws IOException {
        ObjectNode out = NODES.objectNode();
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            return out;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            if (!v.isScalarValue() || out.size() >= TraceLimits.MAX_FIELDS || key.length() > TraceLimits.MAX_FIELD_CHARS) {
                p.skipChildren();
                continue;
            }
            switch (v) {
                case VALUE_NUMBER_INT -> {
                    if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) out.put(key, p.getBigIntegerValue());
                    else out.put(key, p.getLongValue());
                }
                case VALUE_NUMBER_FLOAT -> out.put(key, p.getDoubleValue());
                case VALUE_TRUE, VALUE_FALSE -> out.put(key, v == JsonToken.VALUE_TRUE);
                case VALUE_NULL -> out.putNull(key);
                default -> {
                    String text = p.getText();
                    out.put(key, text.length() > TraceLimits.MAX_FIELD_CHARS ? text.substring(0, TraceLimits.MAX_FIELD_CHARS) : text);
                }
            }
        }
        return out;
    }
}
