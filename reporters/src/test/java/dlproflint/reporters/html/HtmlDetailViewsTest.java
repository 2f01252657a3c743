package dlproflint.reporters.html;

import dlproflint.detail.MemoryCurve;
import dlproflint.detail.ModuleTime;
import dlproflint.detail.ProfileDetail;
import dlproflint.detail.TimelineWindow;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Timeline, Memory and Module views without a browser: a window at its cap (8,000 operations with long names, two
 * devices' curves at 2,000 points, 500 modules) keeps the report of the large sample under 5 MB; hostile names are
 * escaped text; no {@code style} or event-handler attribute; without a detail the views are not there.
 */
class HtmlDetailViewsTest {
    static final String HOSTILE = "</svg><script>alert(1)</script>\"onmouseover=\"x";

    static ProfileDetail fullDetail() {
        List<TimelineWindow.Lane> lanes = List.of(new TimelineWindow.Lane("GPU 0 · stream 7", true, 0),
                new TimelineWindow.Lane("GPU 1 · stream 7", true, 1), new TimelineWindow.Lane("thread 1", false, -1));
        List<TimelineWindow.Span> spans = new ArrayList<>();
        String longName = "void cutlass::Kernel<cutlass::gemm::kernel::GemmUniversal<" + "x".repeat(400) + ">>";
        for (int i = 0; i < TimelineWindow.MAX_SPANS; i++) {
            int lane = i % 3;
            TimelineWindow.Kind kind = lane == 2 ? (i % 30 == 2 ? TimelineWindow.Kind.SYNC : TimelineWindow.Kind.LAUNCH) : TimelineWindow.Kind.KERNEL;
            long start = 1_000L * i + (i > 6000 ? 200_000 : 0); // a 200 µs gap on both GPUs after operation 6000
            spans.add(new TimelineWindow.Span(lane, start, start + 600, kind, i == 5 ? HOSTILE : longName, "tensor-core"));
        }
        // the host synchronises while the GPUs drain, then they wait for it
        spans.add(new TimelineWindow.Span(2, 6_000_000L, 6_050_000L, TimelineWindow.Kind.SYNC, "cudaStreamSynchronize", null));
        spans.sort(java.util.Comparator.comparingLong(TimelineWindow.Span::startNs));
        List<TimelineWindow.Step> steps = List.of(new TimelineWindow.Step(4, 0, 4_000_000), new TimelineWindow.Step(5, 4_000_000, 8_000_000),
                new TimelineWindow.Step(6, 8_000_000, 12_000_000));
        TimelineWindow w = new TimelineWindow(5, 0, 12_000_000, steps, lanes, spans, 3_000_000, "step 5, the median");
        List<MemoryCurve.Device> devices = new ArrayList<>();
        for (int d = 0; d < 2; d++) {
            int n = MemoryCurve.MAX_POINTS;
            long[] t = new long[n];
            long[] a = new long[n];
            long[] r = new long[n];
            for (int i = 0; i < n; i++) {
                t[i] = 6_000L * i;
                a[i] = 1_000_000_000L + 7_919L * (i % 997) * 1000;
                r[i] = a[i] + 500_000_000L;
            }
            devices.add(new MemoryCurve.Device(d, t, a, r, t[996], a[996], r[996], HOSTILE, 80_000_000_000L, n));
        }
        List<ModuleTime> modules = new ArrayList<>();
        for (int i = 0; i < ModuleTime.MAX; i++) {
            modules.add(new ModuleTime("Model_0/Layer_" + i + (i == 3 ? HOSTILE : ""), "Layer_" + i, 1, 4, 1_000_000L - i, 10_000L));
        }
        return new ProfileDetail(w, new MemoryCurve("test curves", devices), modules, null, null);
    }

    @Test
    void aWindowAtItsCapKeepsTheLargeReportUnderFiveMegabytes() throws IOException {
        LintRun large = SampleRuns.large();
        List<ProfileResult> results = new ArrayList<>();
        for (ProfileResult r : large.results()) results.add(r.withDetail(fullDetail()));
        String html = HtmlReporterTest.render(new LintRun(large.toolVersion(), large.packs(), large.rules(), results, large.job()));
        int bytes = html.getBytes(StandardCharsets.UTF_8).length;
        assertTrue(bytes < 5_000_000, "report of " + bytes + " bytes");
        assertTrue(html.contains("3000000 more operations in the window were left out"), "the cap is said");
        assertTrue(html.contains("id=\"p1-v-timeline\"") && html.contains("id=\"p1-v-memory\"") && html.contains("id=\"p1-v-modules\""));
        assertFalse(html.contains("<script>alert(1)"), "hostile names are text");
        assertFalse(html.contains("\"onmouseover=\""), "no attribute made of a name");
        assertFalse(html.contains(" style="), "no style attribute");
        assertTrue(html.contains("id=\"p1-tl-sync\""), "the sync before the longest gap is marked");
    }

    @Test
    void withoutADetailTheViewsAreNotThere() throws IOException {
        String html = HtmlReporterTest.render(SampleRuns.realistic());
        assertFalse(html.contains("-v-timeline"));
        assertEquals(-1, html.indexOf("class=\"tl-link\""));
    }
}
