package dlproflint.synth;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Makes a large Kineto trace from a real one by repeating its events: copy k is shifted in time by
 * k × the template's span, its ids ({@code External id}, {@code correlation}, flow ids) by k × a
 * stride, and its {@code ProfilerStep#N} renumbered, until the output reaches the requested size.
 * The output is plain JSON written with a streaming generator (the template is small, the output is not
 * held in memory).
 *
 * <pre>
 * java -cp bench/target/dlprof-lint-bench.jar dlproflint.synth.KinetoTraceScaler TEMPLATE.json[.gz] OUT.json SIZE_MB
 * </pre>
 */
public final class KinetoTraceScaler {
    private static final Pattern STEP = Pattern.compile("^ProfilerStep#(\\d+)$");
    private static final long ID_STRIDE = 10_000_000L;

    private KinetoTraceScaler() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: KinetoTraceScaler TEMPLATE OUT SIZE_MB");
            System.exit(2);
        }
        long bytes = scale(Path.of(args[0]), Path.of(args[1]), Long.parseLong(args[2]) << 20);
        System.out.printf(Locale.ROOT, "wrote %s: %.1f MB%n", args[1], bytes / 1048576.0);
    }

    /** @return bytes written */
    public static long scale(Path template, Path out, long targetBytes) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        JsonNode root;
        try (InputStream in = open(template)) {
            root = mapper.readTree(in);
        }
        JsonNode events = root.isArray() ? root : root.path("traceEvents");
        long minTs = Long.MAX_VALUE;
        long maxEnd = Long.MIN_VALUE;
        int maxStep = 0;
        int steps = 0;
        for (JsonNode e : events) {
            if (!e.path("ts").isNumber()) continue;
            long ts = e.path("ts").asLong();
            minTs = Math.min(minTs, ts);
            maxEnd = Math.max(maxEnd, ts + e.path("dur").asLong(0));
            Matcher m = STEP.matcher(e.path("name").asText(""));
            if (m.matches() && !"gpu_user_annotation".equals(e.path("cat").asText())) {
                maxStep = Math.max(maxStep, Integer.parseInt(m.group(1)));
                steps++;
            }
        }
        long span = maxEnd - minTs + 1;
        Files.createDirectories(out.toAbsolutePath().getParent());
        CountingStream counter;
        try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20);
             JsonGenerator g = new JsonFactory().createGenerator(counter = new CountingStream(os))) {
            g.writeStartObject();
            if (root.isObject()) {
                Iterator<Map.Entry<String, JsonNode>> fields = root.fields();
                while (fields.hasNext()) {
                    Map.Entry<String, JsonNode> f = fields.next();
                    if (f.getKey().equals("traceEvents")) continue;
                    g.writeFieldName(f.getKey());
                    mapper.writeTree(g, f.getValue());
                }
            }
            g.writeArrayFieldStart("traceEvents");
            copies:
            for (int copy = 0; ; copy++) {
                int n = 0;
                for (JsonNode e : events) {
                    mapper.writeTree(g, shifted(e, copy, span, steps == 0 ? 0 : maxStep + 1));
                    if (++n % 1024 == 0) {
                        g.flush();
                        if (counter.count >= targetBytes) break copies;
                    }
                }
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        return Files.size(out);
    }

    private static JsonNode shifted(JsonNode e, int copy, long span, int stepStride) {
        if (copy == 0 || !e.isObject()) return e;
        ObjectNode o = ((ObjectNode) e).deepCopy();
        if (o.path("ts").isNumber()) o.put("ts", o.path("ts").asLong() + copy * span);
        if (o.path("id").isNumber()) o.put("id", o.path("id").asLong() + copy * ID_STRIDE);
        Matcher m = STEP.matcher(o.path("name").asText(""));
        if (m.matches()) o.put("name", "ProfilerStep#" + (Integer.parseInt(m.group(1)) + copy * stepStride));
        JsonNode args = o.path("args");
        if (args.isObject()) {
            ObjectNode a = (ObjectNode) args;
            for (String key : List.of("External id", "external id", "correlation")) {
                if (a.path(key).isNumber() && a.path(key).asLong() != 0) a.put(key, a.path(key).asLong() + copy * ID_STRIDE);
            }
        }
        return o;
    }

    private static InputStream open(Path p) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(p)) {
            head = in.readNBytes(2);
        }
        InputStream in = Files.newInputStream(p);
        return head.length == 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b ? new GZIPInputStream(in, 1 << 16) : in;
    }

    private static final class CountingStream extends java.io.FilterOutputStream {
        long count;

        CountingStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }
    }
}
