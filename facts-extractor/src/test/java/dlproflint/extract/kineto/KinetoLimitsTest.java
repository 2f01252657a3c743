package dlproflint.extract.kineto;

import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ExtractionWarning;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.ProfileFacts;
import dlproflint.synth.HostileTraces;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

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
@org.junit.jupiter.api.Tag("hostile")
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class KinetoLimitsTest {
    @TempDir
    Path dir;

    private Path gzipTrace(String name, long n, java.util.function.LongFunction<String> event) throws IOException {
        return HostileTraces.gzipEvents(dir.resolve(name), n, event);
    }

    private static String refusal(Path p) {
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileReaders.discover().read(p, ReadOptions.DEFAULT));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        return e.getMessage();
    }

    /** A 1 MB gzip of two million empty device objects: read as a tree it took gigabytes; now 1024 entries and a warning. */
    @Test
    void aHugeDevicePropertiesArrayIsCut() throws Exception {
        Path p = HostileTraces.hugeDeviceProperties(dir.resolve("devices.json.gz"), 2_000_000);
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
        Path p = gzipTrace("identical.json.gz", 3_000_000, i -> HostileTraces.kernel(10, 0));
        String msg = refusal(p);
        assertTrue((msg.contains("expands beyond") && msg.contains("100x")) || msg.contains("events, more than one per 4 bytes"), msg);
    }

    /** Events that compress within 100x but are far denser than any real trace: refused by the event limit. */
    @Test
    void moreEventsThanTheFileCanHoldAreRefused() throws Exception {
        Path p = gzipTrace("dense.json.gz", 1_300_000, i -> HostileTraces.kernel(10 + 7 * i, 0));
        long size = Files.size(p);
        assertTrue(size / TraceLimits.BYTES_PER_EVENT < 1_300_000, "the file is denser than the limit: " + size + " bytes");
        String msg = refusal(p);
        assertTrue(msg.contains("events, more than one per 4 bytes"), msg);
    }

    @Test
    void moreThanTheDeviceLimitIsRefused() throws Exception {
        Path p = gzipTrace("devices-on-events.json.gz", TraceLimits.MAX_DEVICES + 10,
                i -> HostileTraces.kernel(10 + i, i));
        assertTrue(refusal(p).contains("distinct GPU devices"));
    }

    /** Long distinct names that compress well: the kept text is bounded, not the gzip's expansion. */
    @Test
    void distinctTextBeyondTheBudgetIsRefused() throws Exception {
        String stem = "k".repeat(1 << 20);
        Path p = gzipTrace("names.json.gz", 40,
                i -> "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" + i + stem + "\",\"ts\":" + (10 + i) + ",\"dur\":1}");
        assertTrue(refusal(p).contains("Mi characters of distinct names"));
    }

    /** Many devices, each with work: utilisation is still per device (grouped once, not rescanned per device). */
    @Test
    void manyDevicesAreGroupedInOnePass() throws Exception {
        int devices = TraceLimits.MAX_DEVICES;
        Path p = gzipTrace("many.json.gz", devices * 200L, i -> HostileTraces.kernel(10 + 10 * (i / devices), i % devices));
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
