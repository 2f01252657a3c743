package dlproflint.facts;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

class KeyMetricsTest {
    private static ProfileFacts.Builder base() {
        return ProfileFacts.builder().profile(new ProfileInfo("p", "nsys-sqlite", null, null, 0, 1_000));
    }

    @Test
    void stepTimesComeFromTheAggregatedStepsOnly() {
        ProfileFacts f = base()
                .iteration(new Iteration(0, 0, 500, false, 1, 0, 0, 0))
                .iteration(new Iteration(1, 500, 600, true, 1, 0, 0, 0))
                .iteration(new Iteration(2, 600, 720, true, 1, 0, 0, 0))
                .iteration(new Iteration(3, 720, 1000, true, 1, 0, 0, 0))
                .iterationSummary(new IterationSummary("step", true, "user", 4, 1, 3, 166.7, 0, IterationSummary.USER_KEY_NODE, java.util.List.of()))
                .build();
        KeyMetrics m = KeyMetrics.of(f);
        assertEquals((100 + 120 + 280) / 3.0, m.get(KeyMetrics.Metric.STEP_TIME), 1e-9);
        assertEquals(280.0, m.get(KeyMetrics.Metric.STEP_TIME_P90));
    }

    @Test
    void whatTheProfileDoesNotCarryIsAbsentNotZero() {
        KeyMetrics m = KeyMetrics.of(base().build());
        assertNull(m.get(KeyMetrics.Metric.STEP_TIME));
        assertFalse(m.has(KeyMetrics.Metric.GPU_UTILIZATION), "no GPU work: no utilization figure");
        assertFalse(m.has(KeyMetrics.Metric.PEAK_MEMORY_SHARE));
    }

    @Test
    void sharesAreBoundedAndNamedByKey() {
        ProfileFacts f = base()
                .gpuUsage(new GpuUsage(0, 3, 10, 0, 10, 1_000, 1.0))
                .breakdown(new TimeBreakdown(1_000, 250, 1.0, 0, 1, 0, 0, 0, 99, 0))
                .syncApiStat(new SyncApiStat("cudaDeviceSynchronize", 4, 300, 100, 1_000, List.of()))
                .build();
        KeyMetrics m = KeyMetrics.of(f);
        assertEquals(100.0, m.get(KeyMetrics.Metric.TENSOR_CORE_SHARE));
        assertEquals(30.0, m.get(KeyMetrics.Metric.HOST_SYNC_SHARE));
        assertEquals(KeyMetrics.Metric.HOST_SYNC_SHARE, KeyMetrics.Metric.ofKey("host-sync-share"));
    }

    @Test
    void anNsysExportWithCudaApiCallsButNoSynchronisationIsAtZeroOthersDoNotKnow() {
        ApiStat launch = new ApiStat("cudaLaunchKernel", "launch", new Stat(10, 50, 4, 6));
        assertEquals(0.0, KeyMetrics.of(base().apiStat(launch).build()).get(KeyMetrics.Metric.HOST_SYNC_SHARE),
                "nsys records every synchronisation call: none means 0%");
        ProfileFacts kineto = ProfileFacts.builder().profile(new ProfileInfo("t.json", "kineto", null, null, 0, 1_000))
                .apiStat(launch).build();
        assertFalse(KeyMetrics.of(kineto).has(KeyMetrics.Metric.HOST_SYNC_SHARE), "a trace without synchronisation statistics");
        assertFalse(KeyMetrics.of(base().build()).has(KeyMetrics.Metric.HOST_SYNC_SHARE), "no CUDA API trace at all");
    }

    @Test
    void metricsBecomeFactsInTheirOwnUnits() {
        ProfileFacts f = base()
                .iteration(new Iteration(0, 0, 500, true, 1, 0, 0, 0))
                .iteration(new Iteration(1, 500, 1000, true, 1, 0, 0, 0))
                .iterationSummary(new IterationSummary("step", true, "user", 2, 0, 1, 500, 0, IterationSummary.USER_KEY_NODE, List.of()))
                .build();
        List<MetricValue> facts = KeyMetrics.of(f).facts();
        assertEquals(new MetricValue("step-time", 500.0, "ns"), facts.get(0));
        assertEquals(new MetricValue("step-time-p90", 500.0, "ns"), facts.get(1));
        assertEquals(250e6, KeyMetrics.Metric.STEP_TIME.fromConfigUnit(250), "budgets are written in ms");
        assertEquals("ms", KeyMetrics.Metric.STEP_TIME.configUnit());
        assertEquals(70.0, KeyMetrics.Metric.GPU_UTILIZATION.fromConfigUnit(70));
    }
}
