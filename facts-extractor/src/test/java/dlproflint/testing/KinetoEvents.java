package dlproflint.testing;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

/**
 * Streams the events of a Kineto (Chrome trace) file one at a time, independently of the reader under
 * test: plain or gzip, a bare array or an object with {@code traceEvents}.
 */
public final class KinetoEvents {
    private static final ObjectMapper JSON = new ObjectMapper();

    private KinetoEvents() {
    }

    public static InputStream open(Path file) throws IOException {
        InputStream in = new BufferedInputStream(Files.newInputStream(file));
        in.mark(2);
        int b1 = in.read();
        int b2 = in.read();
        in.reset();
        return b1 == 0x1f && b2 == 0x8b ? new GZIPInputStream(in, 1 << 16) : in;
    }

    /** Hands every element of the event array to {@code each}. */
    public static void forEach(Path file, Consumer<JsonNode> each) throws IOException {
        try (InputStream in = open(file); JsonParser p = new JsonFactory(JSON).createParser(in)) {
            JsonToken t = p.nextToken();
            if (t == JsonToken.START_ARRAY) {
                events(p, each);
                return;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                if ("traceEvents".equals(field) && v == JsonToken.START_ARRAY) events(p, each);
                else p.skipChildren();
            }
        }
    }

    private static void events(JsonParser p, Consumer<JsonNode> each) throws IOException {
        while (p.nextToken() == JsonToken.START_OBJECT) each.accept(p.readValueAsTree());
    }

    /** Whether an event is a GPU kernel (modern {@code kernel} or legacy {@code Kernel} category). */
    public static boolean isKernel(JsonNode e) {
        return "kernel".equalsIgnoreCase(e.path("cat").asText(""));
    }
}
