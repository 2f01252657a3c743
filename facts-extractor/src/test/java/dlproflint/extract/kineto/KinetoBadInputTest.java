package dlproflint.extract.kineto;

import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.KernelFact;
import dlproflint.facts.ProfileFacts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Broken and hostile Kineto inputs: a one-line ProfileException or a tolerated event, never a crash. */
@org.junit.jupiter.api.Tag("hostile")
class KinetoBadInputTest {
    private static final String GOOD = """
            {"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "GPU", "totalGlobalMem": 1000, "computeMajor": 8, "computeMinor": 0, "numSms": 4}],
             "traceEvents": [
              {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 100, "dur": 100},
              {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 110, "dur": 20, "args": {"External id": 7, "Input type": ["float", "float"]}},
              {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 112, "dur": 5, "args": {"External id": 7, "correlation": 99}},
              {"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_nn", "pid": 0, "tid": 7, "ts": 120, "dur": 30, "args": {"External id": 7, "correlation": 99, "device": 0, "stream": 7, "grid": [8, 1, 1], "block": [128, 1, 1]}}
             ]}
            """;

    @TempDir
    Path dir;

    private Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(bos)) {
            gz.write(data);
        }
        return bos.toByteArray();
    }

    /** A plain trace cut short (a killed export, a partial download) says so, without the JSON library's internals. */
    @Test
    void aTruncatedPlainTraceSaysItEndsEarlyInTheUsersWords() throws IOException {
        byte[] whole = GOOD.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (int cut : new int[] {5, 40, whole.length / 2, whole.length - 4}) {
            String msg = oneLineError(write("cut-" + cut + ".json", java.util.Arrays.copyOf(whole, cut)));
            assertTrue(msg.startsWith("invalid JSON at line "), msg);
            assertTrue(msg.contains("the file ends early (truncated?)"), msg);
            for (String internal : new String[] {"Source", "REDACTED", "StreamReadFeature", "start marker"}) {
                assertFalse(msg.contains(internal), internal + " in: " + msg);
            }
        }
        String bare = oneLineError(write("cut-array.json", "[{\"ph\": \"X\", \"name\": \"aten::mm\"}, {\"ph\"".getBytes()));
        assertTrue(bare.contains("the file ends early (truncated?)"), bare);
    }

    private static String oneLineError(Path p) {
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileReaders.discover().read(p, ReadOptions.DEFAULT));
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        assertEquals(p, e.file());
        return e.getMessage();
    }

    @Test
    void aSmallValidTraceLinksKernelToOp() throws Exception {
        ProfileFacts f = ProfileReaders.discover().read(write("t.json", GOOD.getBytes(StandardCharsets.UTF_8)), ReadOptions.DEFAULT);
        KernelFact k = f.kernels().get(0);
        assertEquals("aten::mm", k.opId());
        assertEquals(30_000, k.gpuTime().total());
        assertEquals("8,1,1", k.grid());
        assertEquals("float32", f.ops().stream().filter(o -> o.name().equals("aten::mm")).findFirst().orElseThrow().dataType());
    }

    @Test
    void truncatedGzipIsReported() throws Exception {
        byte[] gz = gzip(GOOD.getBytes(StandardCharsets.UTF_8));
        Path p = write("t.json.gz", Arrays.copyOf(gz, gz.length / 2));
        assertTrue(oneLineError(p).contains("truncated"), "message names the truncation");
    }

    @Test
    void truncatedJsonIsReportedWithAPosition() throws Exception {
        Path p = write("t.json", GOOD.substring(0, GOOD.length() / 2).getBytes(StandardCharsets.UTF_8));
        String msg = oneLineError(p);
        assertTrue(msg.contains("JSON") || msg.contains("end of input"), msg);
    }

    @Test
    void jsonThatIsNotATraceIsRefused() throws Exception {
        assertTrue(oneLineError(write("a.json", "{\"hello\": [1, 2, 3]}".getBytes(StandardCharsets.UTF_8)))
                .contains("not a PyTorch profiler trace"));
        assertTrue(oneLineError(write("b.json", "{\"traceEvents\": 5}".getBytes(StandardCharsets.UTF_8)))
                .contains("traceEvents"));
    }

    @Test
    @Timeout(120)
    void deeplyNestedJsonIsRefusedQuickly() throws Exception {
        String deep = "{\"traceEvents\": [{\"args\": " + "[".repeat(100_000) + "]".repeat(100_000) + "}]}";
        String msg = oneLineError(write("deep.json", deep.getBytes(StandardCharsets.UTF_8)));
        assertTrue(msg.contains("nesting"), msg);
    }

    @Test
    @Timeout(120)
    void gzipBombStopsAtTheExpansionLimit() throws Exception {
        // ~100 MB of zeros inside a tiny gzip that looks like the start of a JSON trace
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(bos)) {
            gz.write("{\"traceEvents\": [{\"name\": \"".getBytes(StandardCharsets.UTF_8));
            byte[] block = new byte[1 << 20];
            Arrays.fill(block, (byte) 'a');
            for (int i = 0; i < 100; i++) gz.write(block);
        }
        Path p = write("bomb.json.gz", bos.toByteArray());
        String msg = oneLineError(p);
        assertTrue(msg.contains("expands beyond") || msg.contains("String value length"), msg);
    }

    @Test
    void eventsWithMissingOrOddFieldsAreTolerated() throws Exception {
        String odd = """
                {"traceEvents": [
                  {"ph": "X", "cat": "kernel", "name": "k"},
                  {"ph": "X", "cat": "kernel", "name": "k2", "ts": "abc", "dur": 1},
                  {"ph": "X", "cat": "kernel", "name": "k3", "ts": 10, "dur": -5, "args": {"correlation": 18446744073709551615, "External id": null, "device": "x"}},
                  {"ph": "X", "cat": "cpu_op", "name": null, "ts": 1, "dur": 1, "args": {"Python parent id": null}},
                  7, "text", null,
                  {"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16", "pid": 0, "ts": 20, "dur": 3, "args": {"External id": 10159970886766084423}}
                ], "baseTimeNanoseconds": 1700000000000000000}
                """;
        ProfileFacts f = ProfileReaders.discover().read(write("odd.json", odd.getBytes(StandardCharsets.UTF_8)), ReadOptions.DEFAULT);
        assertEquals(2, f.kernels().stream().mapToLong(KernelFact::calls).sum(), "two timed kernels");
        assertTrue(f.warnings().stream().anyMatch(w -> w.code().equals("negative-duration")));
        assertTrue(f.warnings().stream().anyMatch(w -> w.code().equals("missing-timestamp")));
        assertEquals(1_700_000_000_000_000_000L + 1_000, f.profile().startNs(), "base time added to relative timestamps");
    }

    @Test
    void invalidUtf8InNamesDoesNotCrash() throws Exception {
        byte[] prefix = "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"bad".getBytes(StandardCharsets.US_ASCII);
        byte[] suffix = "\", \"ts\": 1, \"dur\": 2}]}".getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[prefix.length + 2 + suffix.length];
        System.arraycopy(prefix, 0, all, 0, prefix.length);
        all[prefix.length] = (byte) 0xC3;
        all[prefix.length + 1] = (byte) 0x28;
        System.arraycopy(suffix, 0, all, prefix.length + 2, suffix.length);
        Path p = write("utf.json", all);
        try {
            ProfileReaders.discover().read(p, ReadOptions.DEFAULT);
        } catch (ProfileException e) {
            assertFalse(e.getMessage().contains("\n"));
        }
    }
}
