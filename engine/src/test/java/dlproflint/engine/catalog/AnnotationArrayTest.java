package dlproflint.engine.catalog;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The JSON arrays rule annotations hold ({@code @params}, {@code @messages}, {@code @evidence}), read without a mapper. */
class AnnotationArrayTest {
    @Test
    void scalarsAreTakenAsTheirText() throws IOException {
        assertEquals(List.of("a: int = 1", "b, c", "2", "true"), RuleCatalog.stringArray("[\"a: int = 1\", \"b, c\", 2, true]"));
        assertEquals(List.of(), RuleCatalog.stringArray("[]"));
        assertEquals(List.of("x \"q\" \u00e9"), RuleCatalog.stringArray("[\"x \\\"q\\\" \\u00e9\"]"));
    }

    @Test
    void anythingElseIsRefused() {
        for (String bad : List.of("{\"a\": 1}", "[\"a\", null]", "[[\"a\"]]", "[\"a\",", "[\"a\" \"b\"]", "\"a\"")) {
            assertThrows(IOException.class, () -> RuleCatalog.stringArray(bad), bad);
        }
    }
}
