package dlproflint.extract.kineto;

import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The parallel parse of a plain-JSON trace (cut into chunks parsed on several threads) gives exactly the
 * facts of the serial parse: on real traces cut every few kilobytes, on traces whose text contains what
 * looks like a cut, with top-level fields after the event array, and, through the reader, on malformed
 * files, which keep the serial parser's exact error.
 */
class ParallelTraceParserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KinetoTraceReader READER = new KinetoTraceReader();

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {
            "kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz",
            "kineto-tb-plugin/86791410/tb_plugin/samples/resnet50_profiler_api_num_workers_0/worker0.pt.trace.json.gz",
            "hta/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz",
            "hta/tests/data/trace_filter/sampled_rank-0.json.gz",
            "hta/tests/data/call_stack/backward_thread.json",
    })
    void realTracesCutIntoManyChunksGiveTheSerialFacts(String trace) throws Exception {
        Path plain = plain(Corpus.file(trace));
        KinetoAggregator agg = new KinetoAggregator(ReadOptions.DEFAULT, TraceLimits.unbounded());
        new ParallelTraceParser(3, 16 << 10, TraceLimits.unbounded()).parse(plain, agg); // no Fallback: every cut was trusted
        assertEquals(facts(READER.readWith(plain, ReadOptions.DEFAULT, null)), facts(new KinetoFactsBuilder(agg, plain).build()));
    }

    @Test
    void textThatLooksLikeACutAndFieldsAfterTheArrayAreHandled() throws Exception {
        StringBuilder b = new StringBuilder("{\"schemaVersion\": 1, \"traceEvents\": [\n");
        for (int i = 0; i < 3000; i++) {
            if (i > 0) b.append(",\n");
            // names that contain "}, {" and nested objects in arrays: false cuts the parser must see through
            b.append("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op}, {").append(i % 7).append("\", \"pid\": 1, \"tid\": 1, ")
                    .append("\"ts\": ").append(1000 + i * 10L).append(".5, \"dur\": 4, \"args\": {\"External id\": ").append(i)
                    .append(", \"Input Dims\": [{\"a\": 1}, {\"b\": 2}]}}");
        }
        b.append("\n], \"deviceProperties\": [{\"id\": 0, \"name\": \"GPU\"}], \"baseTimeNanoseconds\": 1700000000000000000}");
        Path file = dir.resolve("cuts.json");
        Files.writeString(file, b, StandardCharsets.UTF_8);
        ProfileFacts serial = READER.readWith(file, ReadOptions.DEFAULT, null);
        assertEquals(facts(serial), facts(READER.readWith(file, ReadOptions.DEFAULT, limits -> new ParallelTraceParser(2, 512, limits))));
        assertEquals(1, serial.gpus().size(), "deviceProperties after the event array are read");
    }

    @Test
    void malformedFilesFallBackToTheSerialParseAndItsError() throws Exception {
        StringBuilder b = new StringBuilder("{\"traceEvents\": [\n");
        for (int i = 0; i < 2000; i++) {
            if (i > 0) b.append(",\n");
            b.append(i == 1500 ? "{\"ph\": \"X\" \"cat\": 1}" : "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"ts\": " + i + ", \"dur\": 1}");
        }
        b.append("\n]}");
        Path file = dir.resolve("broken.json");
        Files.writeString(file, b, StandardCharsets.UTF_8);
        ProfileException serial = assertThrows(ProfileException.class, () -> READER.readWith(file, ReadOptions.DEFAULT, null));
        ProfileException parallel = assertThrows(ProfileException.class,
                () -> READER.readWith(file, ReadOptions.DEFAULT, limits -> new ParallelTraceParser(2, 1024, limits)));
        assertEquals(serial.getMessage(), parallel.getMessage());
        assertThrows(ParallelTraceParser.Fallback.class,
                () -> new ParallelTraceParser(2, 1024, TraceLimits.unbounded()).parse(file, new KinetoAggregator(ReadOptions.DEFAULT, TraceLimits.unbounded())));
    }

    /** The trace's event limit holds for the parallel parse as for the serial one, with the same message. */
    @Test
    void moreEventsThanTheFileCanHoldAreRefusedByBothParses() throws Exception {
        StringBuilder b = new StringBuilder("{\"traceEvents\": [");
        for (int i = 0; i < 1_100_000; i++) b.append(i == 0 ? "{}" : ",{}");
        b.append("]}");
        Path file = dir.resolve("many-empty-events.json");
        Files.writeString(file, b, StandardCharsets.UTF_8);
        ProfileException serial = assertThrows(ProfileException.class, () -> READER.readWith(file, ReadOptions.DEFAULT, null));
        ProfileException parallel = assertThrows(ProfileException.class,
                () -> READER.readWith(file, ReadOptions.DEFAULT, limits -> new ParallelTraceParser(2, 64 << 10, limits)));
        org.junit.jupiter.api.Assertions.assertTrue(serial.getMessage().contains("events"), serial.getMessage());
        assertEquals(serial.getMessage(), parallel.getMessage());
    }

    /** The parallel parse hands over copies of the parser's event: a field copy() forgets is lost there. */
    @Test
    void anEventCopyKeepsEveryField() throws Exception {
        TraceEvent e = new TraceEvent();
        int n = 0;
        for (java.lang.reflect.Field f : TraceEvent.class.getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) continue;
            n++;
            Class<?> t = f.getType();
            if (t == String.class) f.set(e, "v" + n);
            else if (t == long.class) f.setLong(e, 1000L + n);
            else if (t == int.class) f.setInt(e, n);
            else if (t == double.class) f.setDouble(e, n + 0.5);
            else if (t == boolean.class) f.setBoolean(e, true);
            else if (t == int[].class) f.set(e, new int[] {n, n + 1, n + 2});
            else throw new AssertionError("a field of a type this test does not set: " + f);
        }
        TraceEvent c = e.copy();
        for (java.lang.reflect.Field f : TraceEvent.class.getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) continue;
            Object a = f.get(e);
            Object b = f.get(c);
            if (a instanceof int[] x) {
                org.junit.jupiter.api.Assertions.assertArrayEquals(x, (int[]) b, f.getName());
                org.junit.jupiter.api.Assertions.assertNotSame(a, b, f.getName() + " is copied, not shared");
            } else {
                assertEquals(a, b, f.getName());
            }
        }
    }

    private Path plain(Path trace) throws Exception {
        Path out = dir.resolve(trace.getFileName().toString().replace(".gz", ""));
        try (InputStream in = trace.toString().endsWith(".gz") ? new GZIPInputStream(Files.newInputStream(trace))
                : Files.newInputStream(trace)) {
            Files.write(out, in.readAllBytes());
        }
        return out;
    }

    private static String facts(ProfileFacts f) throws Exception {
        return JSON.writeValueAsString(f);
    }
}
