package dlproflint.synth;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongFunction;
import java.util.zip.GZIPOutputStream;

/**
 * Small gzipped Kineto traces that expand into far more than a real trace of their size: many events
 * ({@code {"traceEvents": [...]}} streamed, never held in memory), huge arrays, long repeated names. The
 * hostile-input tests of the reader and of the CLI, and the fuzzer's structure-aware mutants, build their
 * inputs with these.
 */
public final class HostileTraces {
    /** A minimal kernel event on {@code device} at {@code ts} µs. */
    public static final String KERNEL = "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":3,"
            + "\"args\":{\"device\":%d}}";

    private HostileTraces() {
    }

    /** A minimal kernel event. */
    public static String kernel(long ts, long device) {
        return String.format(KERNEL, ts, device);
    }

    /** Writes a gzip of {@code head}, the {@code n} events {@code event(0..n-1)} comma-separated, and {@code tail}. */
    public static Path gzipEvents(Path file, String head, long n, LongFunction<String> event, String tail) throws IOException {
        try (OutputStream gz = new GZIPOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), 1 << 16)) {
            gz.write(head.getBytes(StandardCharsets.UTF_8));
            StringBuilder chunk = new StringBuilder();
            for (long i = 0; i < n; i++) {
                if (i > 0) chunk.append(',');
                chunk.append(event.apply(i));
                if (chunk.length() > 1 << 20) {
                    gz.write(chunk.toString().getBytes(StandardCharsets.UTF_8));
                    chunk.setLength(0);
                }
            }
            gz.write(chunk.toString().getBytes(StandardCharsets.UTF_8));
            gz.write(tail.getBytes(StandardCharsets.UTF_8));
        }
        return file;
    }

    /** {@code {"traceEvents": [events]}}, gzipped. */
    public static Path gzipEvents(Path file, long n, LongFunction<String> event) throws IOException {
        return gzipEvents(file, "{\"traceEvents\": [", n, event, "]}");
    }

    /** A {@code deviceProperties} array of one real device and {@code empties} (at least 1) empty objects, then one kernel. */
    public static Path hugeDeviceProperties(Path file, long empties) throws IOException {
        return gzipEvents(file, "{\"deviceProperties\": [{\"id\": 0, \"name\": \"A100\", \"nested\": {\"deep\": [1, 2, 3]}},",
                Math.max(1, empties), i -> "{}", "], \"traceEvents\": [" + kernel(10, 0) + "]}");
    }
}
