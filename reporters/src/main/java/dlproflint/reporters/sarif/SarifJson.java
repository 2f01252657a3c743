package dlproflint.reporters.sarif;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.contrastsecurity.sarif.ReportingConfiguration;
import com.contrastsecurity.sarif.Result;

/**
 * The Jackson set-up for java-sarif's POJOs. They are generated with {@code NON_DEFAULT} inclusion,
 * which drops a level equal to the schema default ({@code warning}); mix-ins keep every {@code level}
 * so a reader (and a golden file) sees the severity without knowing SARIF defaults.
 */
final class SarifJson {
    static final ObjectMapper MAPPER = dlproflint.reporters.SafeJson.mapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            // property bags are hash maps in java-sarif: sort them so output is byte-stable everywhere
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .addMixIn(Result.class, ResultLevel.class)
            .addMixIn(ReportingConfiguration.class, ConfigurationLevel.class)
            .build();

    private SarifJson() {
    }

    abstract static class ResultLevel {
        @JsonProperty("level")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        Result.Level level;
    }

    abstract static class ConfigurationLevel {
        @JsonProperty("level")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        ReportingConfiguration.Level level;
    }
}
