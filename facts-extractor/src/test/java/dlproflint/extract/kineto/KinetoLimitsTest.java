package dlproflint.extract.kineto;

import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ExtractionWarning;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
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
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17 item 3: the Kineto reader bounds what it materialises in proportion to the file
 * ({@link TraceLimits}). Each case is a small file that used to expand into gigabytes of memory or hours
 * of work; RSS of the whole command on the same shapes is measured in docs/testing.md. Timeouts only
 * guard against a hang.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class KinetoLimitsTest {
    private static final String KERNEL = "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":3,"
            + "\"args\":{\"device\":%d}}";

    @TempDir
    Path dir;

    /** Writes a gzip of {@code head}, {@code n} events made by {@code event}, and the closing brackets. */
    private Path gzipTrace(String name, String head, long n, java.util.function.LongFunction<String> event) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(bos, 1 << 16)) {
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
            gz.write("]}".getBytes(StandardCharsets.UTF_8));
        }
        return Files.write(dir.resolve(name), bos.toByteArray());
    }

    private static String refusal(Path p) {
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileReaders.discover().read(p, ReadOptions.DEFAULT));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        return e.getMessage();
    }

    /** A 1 MB gzip of two million empty device objects: read as a tree it took gigabytes; now 1024 entries and a warning. */
    @Test
    void aHugeDevicePropertiesArrayIsCut() throws Exception {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(bos)) {
            gz.write("{\"deviceProperties\": [{\"id\": 0, \"name\": \"A100\", \"nested\": {\"deep\": [1, 2, 3]}}".getBytes(StandardCharsets.UTF_8));
            byte[] empties = ",{}".repeat(100_000).getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 20; i++) gz.write(empties);
            gz.write(("], \"traceEvents\": [" + String.format(KERNEL, 10, 0) + "]}").getBytes(StandardCharsets.UTF_8));
        }
        Path p = Files.write(dir.resolve("devices.json.gz"), bos.toByteArray());
        ProfileFacts facts = ProfileReaders.discover().read(p, ReadOptions.DEFAULT);
        List<GpuInfo> gpus = facts.facts().filter(GpuInfo.class::isInstance).map(GpuInfo.class::cast).toList();
        assertTrue(gpus.size() <= TraceLimits.MAX_DEVICES, "GPU facts: " + gpus.size());
        assertEquals("A100", gpus.stream().filter(g -> g.deviceId() == 0).findFirst().orElseThrow().name());
        assertTrue(warnings(facts).contains("device-properties-cut"), warnings(facts).toString());
    }

    /**
     * A gzip of identical events expands hundreds of times: refused by the expansion limit (100x) or the
     * event limit, whichever it reaches first, with a few MB of events kept at most.
     */
    @Test
    void aGzipOfIdenticalEventsIsRefused() throws Exception {
        Path p = gzipTrace("identical.json.gz", "{\"traceEvents\": [", 3_000_000, i -> String.format(KERNEL, 10, 0));
        String msg = refusal(p);
        assertTrue((msg.contains("expands beyond") && msg.contains("100x")) || msg.contains("events, more than one per 4 bytes"), msg);
    }

    /** Events that compress within 100x but are far denser than any real trace: refused by the event limit. */
    @Test
    void moreEventsThanTheFileCanHoldAreRefused() throws Exception {
        Path p = gzipTrace("dense.json.gz", "{\"traceEvents\": [", 1_300_000, i -> String.format(KERNEL, 10 + 7 * i, 0));
        long size = Files.size(p);
        assertTrue(size / TraceLimits.BYTES_PER_EVENT < 1_300_000, "the file is denser than the limit: " + size + " bytes");
        String msg = refusal(p);
        assertTrue(msg.contains("events, more than one per 4 bytes"), msg);
    }

    @Test
    void moreThanTheDeviceLimitIsRefused() throws Exception {
        Path p = gzipTrace("devices-on-events.json.gz", "{\"traceEvents\": [", TraceLimits.MAX_DEVICES + 10,
                i -> String.format(KERNEL, 10 + i, i));
        assertTrue(refusal(p).contains("distinct GPU devices"));
    }

    /** Long distinct names that compress well: the kept text is bounded, not the gzip's expansion. */
    @Test
    void distinctTextBeyondTheBudgetIsRefused() throws Exception {
        String stem = "k".repeat(1 << 20);
        Path p = gzipTrace("names.json.gz", "{\"traceEvents\": [", 40,
                i -> "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" + i + stem + "\",\"ts\":" + (10 + i) + ",\"dur\":1}");
        assertTrue(refusal(p).contains("Mi characters of distinct names"));
    }

    /** Many devices, each with work: utilisation is still per device (grouped once, not rescanned per device). */
    @Test
    void manyDevicesAreGroupedInOnePass() throws Exception {
        int devices = TraceLimits.MAX_DEVICES;
        Path p = gzipTrace("many.json.gz", "{\"traceEvents\": [", devices * 200L, i -> String.format(KERNEL, 10 + 10 * (i / devices), i % devices));
        ProfileFacts facts = ProfileReaders.discover().read(p, ReadOptions.DEFAULT);
        List<GpuUsage> usage = facts.facts().filter(GpuUsage.class::isInstance).map(GpuUsage.class::cast).toList();
        assertEquals(devices, usage.size());
        for (GpuUsage u : usage) assertEquals(200, u.kernelCount(), "device " + u.deviceId());
    }

    @Test
    void coveredTimeAgreesWithTheSweep() {
        Random rnd = new Random(5);
        for (int round = 0; round < 500; round++) {
            int n = rnd.nextInt(30);
            long[] s = new long[n];
            long[] e = new long[n];
            for (int i = 0; i < n; i++) {
                s[i] = rnd.nextInt(1000);
                e[i] = s[i] + rnd.nextInt(100);
            }
            java.util.Arrays.sort(s);
            java.util.Arrays.sort(e);
            CoveredTime c = CoveredTime.of(s, e);
            for (int q = 0; q < 20; q++) {
                long lo = rnd.nextInt(1200) - 100;
                long hi = lo + rnd.nextInt(400);
                long expected = new SortedPriorityTimeline(new long[][] {s}, new long[][] {e}).flatten(lo, hi)[0];
                assertEquals(expected, c.within(lo, hi), "round " + round + " [" + lo + ", " + hi + ")");
            }
        }
    }

    private static List<String> warnings(ProfileFacts facts) {
        return facts.facts().filter(ExtractionWarning.class::isInstance).map(w -> ((ExtractionWarning) w).code()).toList();
    }
}
