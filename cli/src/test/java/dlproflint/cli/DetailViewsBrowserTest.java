package dlproflint.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.reporters.html.DevToolsPage;
import dlproflint.reporters.html.HeadlessChromium;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Timeline, Memory and Module views of HTML reports written by the command, in headless Chromium: the public
 * {@code gpt_item_sync} trace's host-sync finding links to a timeline window showing the sync and the GPU idle gap after
 * it (checked against the trace itself: no GPU work in the gap, a host sync running at its start), zoom works, the
 * memory curve of {@code gpt_memory_full} marks its peak and the op that reached it, the module view lists the model's
 * modules; no script error, no {@code style} attribute, the Content-Security-Policy as documented. Screenshots stay in
 * {@code cli/target/html-views/}.
 */
@Timeout(600)
class DetailViewsBrowserTest {
    private static final Path WORK = Path.of("target", "html-views").toAbsolutePath();
    private static final String SYNC = "pytorch-h200-2026/gpt_item_sync.pt.trace.json.gz";
    private static final String MEMORY = "pytorch-h200-2026/gpt_memory_full.pt.trace.json.gz";
    private static HeadlessChromium chromium;

    @BeforeAll
    static void render() throws IOException {
        chromium = HeadlessChromium.require();
        Files.createDirectories(WORK);
        for (String[] r : new String[][] {{SYNC, "sync.html"}, {MEMORY, "memory.html"}}) {
            CliHarness.Result res = new CliHarness(WORK).run(Corpus.file(r[0]).toString(), "--report", "html=" + r[1], "--quiet",
                    "--fail-on", "none");
            assertEquals(0, res.code(), res::toString);
        }
        CliHarness.Result example = new CliHarness(WORK).run(Corpus.repoRoot().resolve("examples/resnet-like-fp32.sqlite").toString(),
                "--report", "html=example.html", "--quiet", "--fail-on", "none");
        assertEquals(0, example.code(), example::toString);
    }

    private static DevToolsPage open(String file, String hash) throws IOException, InterruptedException {
        DevToolsPage page = chromium.open(1400, 1000, WORK);
        page.navigate(WORK.resolve(file).toUri() + hash);
        assertEquals("ready", page.evalString("document.documentElement.getAttribute('data-report')"), "script ran");
        return page;
    }

    private static void close(DevToolsPage page, String screenshot) throws IOException {
        try {
            page.screenshot(WORK.resolve(screenshot), false);
            assertEquals(List.of(), page.problems(), "no script error or console error");
            assertEquals(0, page.evalInt("document.querySelectorAll('[style]').length"), "no style attribute (CSP)");
            String csp = page.evalString("document.querySelector('meta[http-equiv=Content-Security-Policy]').content");
            assertTrue(csp.matches("default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; script-src 'sha256-[A-Za-z0-9+/=]+'; "
                    + "img-src data:; base-uri 'none'; form-action 'none'"), "the documented policy: " + csp);
        } finally {
            page.close();
        }
    }

    @Test
    void theIdleTimeFindingLinksToTheHostSyncAndTheGpuGapAfterIt() throws Exception {
        DevToolsPage page = open("sync.html", "");
        try {
            // the trace's finding about its GPU idle time (HTA's idle breakdown: host wait). pytorch/host-sync-in-step,
            // which its labels expect, does not fire on it yet (issue 24); every finding about syncs or idle time links
            // the same way, which the reporter's tests check for that rule id
            String card = "[...document.querySelectorAll('article.finding')].find(a => a.querySelector('code.rule')"
                    + ".textContent === 'pytorch/idle-breakdown')";
            assertEquals("#p1-tl-sync", page.evalString(card + ".querySelector('a.tl-link').getAttribute('href')"));
            page.eval(card + ".querySelector('a.tl-link').click()");
            page.waitFor(() -> !page.eval("document.getElementById('p1-v-timeline').hidden").asBoolean(), "timeline shown");
            page.waitFor(() -> page.evalString("document.getElementById('p1-tl').getAttribute('data-range') || ''").length() > 0,
                    "zoomed");
            double full = page.eval("+document.querySelector('#p1-tl .tl-plot').getAttribute('data-t1')").asDouble();
            String[] range = page.evalString("document.getElementById('p1-tl').getAttribute('data-range')").split(":");
            double a = Double.parseDouble(range[0]);
            double b = Double.parseDouble(range[1]);
            double s = page.eval("+document.getElementById('p1-tl-sync').getAttribute('data-s')").asDouble();
            double e = page.eval("+document.getElementById('p1-tl-sync').getAttribute('data-e')").asDouble();
            assertTrue(a <= s && e <= b && b - a < full / 4, "the window zoomed onto the sync and its gap: " + a + ".." + b + " of " + full);
            assertEquals("visible", page.evalString("document.querySelector('#p1-tl-sync rect').getAttribute('visibility')"));

            // the gap after the sync, in the profile's own time, checked against the trace itself
            double origin = page.eval("+document.querySelector('#p1-tl .tl-plot').getAttribute('data-origin')").asDouble();
            JsonNode gap = page.eval("(() => { const r = [...document.querySelectorAll('#p1-tl .tl-gaps rect[stroke]')]"
                    + ".sort((x, y) => (y.getAttribute('data-e') - y.getAttribute('data-s')) - (x.getAttribute('data-e') - x.getAttribute('data-s')))[0];"
                    + " return [+r.getAttribute('data-s'), +r.getAttribute('data-e')]; })()");
            double gapStart = origin + gap.get(0).asDouble();
            double gapEnd = origin + gap.get(1).asDouble();
            assertTrue(gapEnd - gapStart > 100, "a gap of more than 100 µs: " + (gapEnd - gapStart));
            assertTrue(s <= gap.get(0).asDouble() + 0.2 && e >= gap.get(1).asDouble() - 0.2, "the linked box holds the gap");
            checkAgainstTrace(Corpus.file(SYNC), gapStart, gapEnd);

            // zoom buttons
            page.click(".tl-tools[data-tl='p1-tl'] button[data-tl-zoom='all']");
            assertEquals("0.0:" + String.format(java.util.Locale.ROOT, "%.1f", full),
                    page.evalString("document.getElementById('p1-tl').getAttribute('data-range')"));
            page.click(".tl-tools[data-tl='p1-tl'] button[data-tl-zoom='in']");
            String[] zoomed = page.evalString("document.getElementById('p1-tl').getAttribute('data-range')").split(":");
            assertEquals(full / 2, Double.parseDouble(zoomed[1]) - Double.parseDouble(zoomed[0]), 0.5, "zoom in halves the range");
            page.eval("document.querySelector('.tl-tools[data-tl=\"p1-tl\"] a.tl-link').click()");
            page.waitFor(() -> !page.evalString("document.getElementById('p1-tl').getAttribute('data-range')").equals(
                    String.join(":", zoomed)), "the link zooms again");
        } finally {
            close(page, "timeline-gpt_item_sync.png");
        }
    }

    /**
     * No kernel, copy or memset on the GPU runs inside the gap (beyond rounding to 0.1 µs), and a host synchronisation
     * (a blocking op or API call) is running when the gap starts or ends inside it.
     */
    private static void checkAgainstTrace(Path trace, double gapStart, double gapEnd) throws IOException {
        JsonNode events;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(trace))) {
            events = new ObjectMapper().readTree(in).path("traceEvents");
        }
        boolean sync = false;
        for (JsonNode ev : events) {
            String cat = ev.path("cat").asText();
            double ts = ev.path("ts").asDouble();
            double end = ts + ev.path("dur").asDouble();
            if (cat.equals("kernel") || cat.equals("gpu_memcpy") || cat.equals("gpu_memset")) {
                assertFalse(ts < gapEnd - 0.2 && end > gapStart + 0.2, "GPU work inside the gap: " + ev);
            }
            String name = ev.path("name").asText();
            boolean blocking = name.equals("aten::item") || name.equals("aten::_local_scalar_dense") || name.contains("Synchronize");
            if (blocking && ts <= gapStart + 0.2 && end >= gapStart - 0.2) sync = true;
            if (blocking && end >= gapStart && end <= gapEnd && ts <= gapStart + (gapEnd - gapStart) / 2) sync = true;
        }
        assertTrue(sync, "a host sync at the start of the gap");
    }

    @Test
    void theMemoryViewMarksThePeakAndTheOpThatReachedIt() throws Exception {
        DevToolsPage page = open("memory.html", "#p1-v-memory");
        try {
            assertFalse(page.eval("document.getElementById('p1-v-memory').hidden").asBoolean());
            assertTrue(page.evalInt("document.querySelectorAll('#p1-v-memory polyline').length") >= 2, "allocated and reserved");
            String peak = page.evalString("document.querySelector('#p1-v-memory p.peak').textContent");
            assertTrue(peak.matches("GPU 0: peak [0-9.]+ GB allocated of [0-9.]+ GB \\(9[0-9.]+%\\), .* reserved at most; "
                    + "the peak was reached in aten::\\S+ \\(\\d+ memory events\\)"), peak);
            assertEquals(1, page.evalInt("document.querySelectorAll('#p1-v-memory circle').length"), "the peak marked");
        } finally {
            close(page, "memory-gpt_memory_full.png");
        }
    }

    @Test
    void theModuleViewListsTheModelsModulesLongestFirst() throws Exception {
        DevToolsPage page = open("sync.html", "#p1-v-modules");
        try {
            assertTrue(page.evalInt("document.querySelectorAll('#p1-modules tbody tr').length") > 20);
            assertEquals("GPT_0", page.evalString("document.querySelector('#p1-modules tbody tr td').textContent"));
            JsonNode totals = page.eval("[...document.querySelectorAll('#p1-modules tbody tr')].map(r => +r.cells[2].getAttribute('data-sort'))");
            for (int i = 1; i < totals.size(); i++) assertTrue(totals.get(i - 1).asLong() >= totals.get(i).asLong(), "longest first");
            // nothing recorded: the memory view says how to record it
            assertTrue(page.evalString("document.querySelector('#p1-v-memory .empty').textContent").contains("profile_memory=True"));
        } finally {
            close(page, "modules-gpt_item_sync.png");
        }
    }

    @Test
    void anNsysExportHasATimelineWithItsSyncAndCopies() throws Exception {
        DevToolsPage page = open("example.html", "#p1-v-timeline");
        try {
            assertTrue(page.evalInt("document.querySelectorAll('#p1-tl .tl-spans rect').length") > 100);
            assertTrue(page.evalString("document.querySelector('#p1-v-timeline a.tl-link').textContent")
                    .contains("cudaDeviceSynchronize"), "the example's per-step sync");
            assertTrue(page.evalString("document.querySelector('#p1-v-modules .empty').textContent").contains("Nsight Systems records no nn.Module"));
        } finally {
            close(page, "timeline-example.png");
        }
    }
}
