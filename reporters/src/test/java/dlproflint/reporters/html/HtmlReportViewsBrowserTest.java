package dlproflint.reporters.html;

import dlproflint.findings.Units;
import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.findings.LintRun;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every view of the report in a real headless Chromium, driven like a user through the DevTools protocol:
 * the view renders from the navigation bar, the master-detail tables follow a click (an op → its kernels,
 * an iteration → its kernels, an iteration → its ops → an op's kernels), search and per-column filters
 * narrow a table, the pager moves, keyboard selection works, a finding drills down to its rows and a row
 * links back to its findings. Each test keeps a screenshot in {@code target/html-report-browser/views/}.
 */
class HtmlReportViewsBrowserTest {
    private static final Path WORK = Path.of("target", "html-report-browser", "views");
    private static HeadlessChromium chromium;
    private static String url;
    private DevToolsPage page;
    private String test;

    @BeforeAll
    static void render() throws IOException {
        chromium = HeadlessChromium.require();
        Files.createDirectories(WORK);
        url = write("realistic.html", SampleRuns.realistic()).toUri().toString();
    }

    static Path write(String name, LintRun run) throws IOException {
        Path file = WORK.resolve(name).toAbsolutePath();
        try (OutputStream out = Files.newOutputStream(file)) {
            new HtmlReporter().render(run, out);
        }
        return file;
    }

    @BeforeEach
    void open(TestInfo info) throws Exception {
        test = info.getTestMethod().orElseThrow().getName();
        page = chromium.open(1280, 1000, WORK);
        page.navigate(url);
        assertEquals("ready", page.evalString("document.documentElement.getAttribute('data-report')"), "script ran");
    }

    @AfterEach
    void close() throws IOException {
        if (page == null) return;
        try {
            page.screenshot(WORK.resolve(test + ".png"), false);
            assertEquals(List.of(), page.problems(), "no script error in the page");
        } finally {
            page.close();
        }
    }

    @AfterAll
    static void done() {
        // screenshots stay for inspection
    }

    /** Shows a view through its navigation link. */
    private void view(String name) {
        page.click("nav.views a[href='#p1-v-" + name + "']");
        page.waitFor(() -> !page.eval("document.getElementById('p1-v-" + name + "').hidden").asBoolean(), name);
        assertEquals(1, page.evalInt("[...document.querySelectorAll('#p1 .view')].filter(v => !v.hidden).length"),
                "one view at a time");
        assertEquals("page", page.evalString("document.querySelector(\"nav.views a[href='#p1-v-" + name
                + "']\").getAttribute('aria-current')"));
    }

    private List<String> column(String table, int col) {
        JsonNode n = page.eval("[...document.querySelectorAll('#" + table + " tbody tr[data-row]')].map(r => r.cells["
                + col + "].textContent)");
        List<String> out = new ArrayList<>();
        n.forEach(x -> out.add(x.asText()));
        return out;
    }

    private String info(String table) {
        return page.evalString("document.querySelector('#" + table + " .dt-info').textContent");
    }

    private int rows(String table) {
        return page.evalInt("document.querySelectorAll('#" + table + " tbody tr[data-row]').length");
    }

    @Test
    void dashboardIsTheFirstViewAndEveryOtherIsHidden() {
        assertFalse(page.eval("document.getElementById('p1-v-dash').hidden").asBoolean());
        assertEquals(7, page.evalInt("document.querySelectorAll('#p1 .view').length"));
        assertEquals(1, page.evalInt("[...document.querySelectorAll('#p1 .view')].filter(v => !v.hidden).length"));
        assertEquals(11, page.evalInt("document.querySelectorAll('.dt[data-ready]').length"), "every table enhanced");
        assertEquals(0, page.evalInt("[...document.querySelectorAll('.dt-nojs')].filter(n => !n.hidden).length"),
                "the 'needs JavaScript' notes are hidden");
        assertTrue(page.evalString("document.getElementById('p1-v-dash').textContent").contains("Top 10 GPU ops"));
        // the impact is the first thing on the costliest finding
        assertEquals("Impact \u2248 41.0 ms/step, 13.8% of the step \u00b7 a fix recovers \u2248 30.0 ms/step (10.1%) "
                + "(idle GPU time per step)", page.evalString("document.querySelector('#p1-f1 .impact').textContent"));
    }

    @Test
    void opTypeSummarySortsAndSearches() {
        view("types");
        List<String> types = column("p1-t-types", 0);
        assertEquals(10, types.size(), "10 op types: " + types);
        // sort by op type (text) ascending
        page.click("#p1-t-types thead th[data-key='type'] button");
        List<String> sorted = column("p1-t-types", 0);
        List<String> expected = new ArrayList<>(sorted);
        expected.sort(String::compareTo);
        assertEquals(expected, sorted, "ascending by op type");
        assertEquals("ascending", page.evalString("document.querySelector(\"#p1-t-types th[data-key='type']\").getAttribute('aria-sort')"));
        page.type("#p1-t-types .dt-search input", "conv");
        assertEquals(List.of("conv2d"), column("p1-t-types", 0));
        assertEquals("Showing 1 to 1 of 1 rows (filtered from 10)", info("p1-t-types"));
    }

    @Test
    void opsAndKernelsMasterDetailFollowsTheSelectedOp() {
        view("ops");
        assertEquals(10, rows("p1-t-ops"), "first page");
        // the first op is selected: its kernels and its details are shown
        assertEquals(List.of("implicit_convolve_sgemm", "implicit_convolve_sgemm"), column("p1-t-opkernels", 0));
        // click the fourth op (model/fc, LINEAR_1): its two kernels on two devices
        page.click("#p1-t-ops tbody tr[data-row='3'] td:nth-child(3)");
        assertEquals("true", page.evalString("document.querySelector(\"#p1-t-ops tr[data-row='3']\").getAttribute('aria-selected')"));
        List<String> kernels = column("p1-t-opkernels", 0);
        assertEquals(4, kernels.size(), kernels.toString());
        assertTrue(kernels.containsAll(List.of("ampere_sgemm_128x64_tn",
                "cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_tn_align4>")), kernels.toString());
        String details = page.evalString("document.querySelector('[data-detail-for=\"p1-t-ops\"]').textContent");
        assertTrue(details.contains("model/fc") && details.contains("LINEAR_1"), details);
        // a kernel of it selected: the kernel panel follows
        page.click("#p1-t-opkernels tbody tr[data-row] td:nth-child(1)");
        assertTrue(page.evalString("document.querySelector('[data-detail-for=\"p1-t-opkernels\"]').textContent")
                .contains("Launch API time (CPU)"));
        // search narrows, the pager moves
        page.type("#p1-t-ops .dt-search input", "layer1");
        assertEquals(5, rows("p1-t-ops"));
        assertTrue(info("p1-t-ops").contains("(filtered from 12)"), info("p1-t-ops"));
        page.eval("(() => { const i = document.querySelector('#p1-t-ops .dt-search input'); i.value = ''; "
                + "i.dispatchEvent(new Event('input')); })()");
        page.click("#p1-t-ops .dt-pager button:last-child");
        assertEquals("Showing 11 to 12 of 12 rows", info("p1-t-ops"));
        assertEquals(2, rows("p1-t-ops"));
    }

    @Test
    void columnFilterAndKeyboardSelection() {
        view("ops");
        // the "Using TC" column filter takes 1 or 0
        int usingTc = page.evalInt("[...document.querySelectorAll('#p1-t-ops thead th')].findIndex(th => th.dataset.key === 'tc')");
        page.type("#p1-t-ops .dt-filters td:nth-child(" + (usingTc + 1) + ") input", "1");
        assertEquals(List.of("model/layer1/0/conv2", "model/fc"), column("p1-t-ops", 2));
        // Tab to the first row, arrow down, Enter: the second row is selected and its kernels shown
        page.eval("document.querySelector('#p1-t-ops tbody tr[data-row]').focus()");
        page.press("ArrowDown");
        page.press("Enter");
        String selected = page.evalString("document.querySelector('#p1-t-ops tr[aria-selected=\"true\"] td:nth-child(3)').textContent");
        assertEquals("model/fc", selected);
        assertEquals(4, rows("p1-t-opkernels"));
    }

    @Test
    void pagesRenderedByTheScriptReadLikeTheServerRenderedOne() {
        view("ops");
        String server = page.evalString("document.querySelector('#p1-t-ops tbody').innerText");
        page.click("#p1-t-ops .dt-pager button:last-child");
        page.click("#p1-t-ops .dt-pager button:first-child");
        assertEquals(server, page.evalString("document.querySelector('#p1-t-ops tbody').innerText"),
                "same texts, same formats (durations, counts, yes/no, cut names)");
        view("its");
        String its = page.evalString("document.querySelector('#p1-t-its tbody').innerText");
        page.click("#p1-t-its .dt-pager button:last-child");
        page.click("#p1-t-its .dt-pager button:first-child");
        assertEquals(its, page.evalString("document.querySelector('#p1-t-its tbody').innerText"));
        // Kernels by Op: the per-op rows the browser derives from the kernel rows read like the server's
        view("kbo");
        String ops = page.evalString("document.querySelector('#p1-t-kbo-ops tbody').innerText");
        String kernels = page.evalString("document.querySelector('#p1-t-kbo-kernels tbody').innerText");
        page.click("#p1-t-kbo-its tbody tr[data-row='4'] td:nth-child(1)");
        page.click("#p1-t-kbo-its tbody tr[data-row='3'] td:nth-child(1)");
        assertEquals(ops, page.evalString("document.querySelector('#p1-t-kbo-ops tbody').innerText"));
        assertEquals(kernels, page.evalString("document.querySelector('#p1-t-kbo-kernels tbody').innerText"));
    }

    /**
     * Values where formatting rules differ: Java rounds the shortest decimal digits half up (1.005 s is
     * "1.01 s" although the double is just below 1.005), unit boundaries (999.5 µs), tiny shares. The script must
     * write every cell exactly as the server did.
     */
    @Test
    void browserFormatsEdgeValuesExactlyLikeTheServer() throws Exception {
        long[] ns = {1_005_000_000L, 2_675_000_000L, 12_250_000L, 1_250_000L, 999_500L, 999_499L, 999_999_999L, 999L,
                1_000L, 1_500L, 2_500L, 0L, 1_045_000_000L, 4_205_000L, 10_050_000L, 5L, 150_000_000_000L,
                1_234_567_890_123L, 7_000_000L, 3_335_000L};
        dlproflint.facts.ProfileFacts.Builder b = dlproflint.facts.ProfileFacts.builder()
                .profile(new dlproflint.facts.ProfileInfo("edge.sqlite", "nsys-sqlite", null, null, 0, 10_000_000_000_000L));
        for (int i = 0; i < ns.length; i++) {
            long v = ns[i];
            b.op(new dlproflint.facts.OpFact("OP_" + i, "op" + i, "t" + i, dlproflint.facts.Direction.NA, 3,
                    new dlproflint.facts.Stat(3, v * 7 / 3, v / 3, v), new dlproflint.facts.Stat(3, v, v / 3, v),
                    dlproflint.facts.Stat.EMPTY, new dlproflint.facts.Stat(1, v / 2, v / 2, v / 2), false, false, 0,
                    1_234_567L * i, null, null, List.of()));
            b.gpu(new dlproflint.facts.GpuInfo(i, "gpu" + i, 80, 1024L * 1024 * 1024 * i + 52_428_800L * i, 8, 0, -1));
            b.gpuUsage(new dlproflint.facts.GpuUsage(i, 10, v, 0, v, 1_000_000_000L, i * 0.0125));
        }
        page.navigate(write("edge.html", new LintRun("t", List.of(), List.of(),
                List.of(new dlproflint.findings.ProfileResult(b.build(), List.of(), List.of())))).toUri().toString());
        for (String[] v : new String[][] {{"ops", "p1-t-ops"}, {"types", "p1-t-types"}, {"gpus", "p1-t-gpus"}}) {
            view(v[0]);
            String server = page.evalString("document.querySelector('#" + v[1] + " tbody').innerText");
            page.click("#" + v[1] + " .dt-pager button:last-child");
            String second = page.evalString("document.querySelector('#" + v[1] + " tbody').innerText");
            page.click("#" + v[1] + " .dt-pager button:first-child");
            assertEquals(server, page.evalString("document.querySelector('#" + v[1] + " tbody').innerText"), v[0]);
            // and the second page, rendered by the script only, holds the server's formats of its values
            for (long x : ns) {
                String f = Units.duration(x);
                assertTrue(server.contains(f) || second.contains(f) || !v[0].equals("ops"), f + " in " + v[0]);
            }
        }
        String gpus = page.evalString("document.querySelector('#p1-t-gpus tbody').innerText");
        assertTrue(gpus.contains("\t0.01%\t") && gpus.contains("\t0.03%\t") && gpus.contains("1.0 GiB"), gpus);
    }

    @Test
    void kernelsByIterationFollowTheSelectedIteration() {
        view("kbi");
        assertEquals(List.of("3", "4", "5", "6", "7", "8", "9", "10", "11"), column("p1-t-kbi-its", 0),
                "aggregated iterations");
        assertEquals(10, rows("p1-t-kbi-kernels"), "first page of iteration 3's 14 kernel rows");
        assertTrue(info("p1-t-kbi-kernels").contains("of 14 rows"), info("p1-t-kbi-kernels"));
        // iteration 4 has twice the GPU time per kernel row of iteration 3 (the fixture alternates)
        String before = String.join("|", column("p1-t-kbi-kernels", 6));
        page.click("#p1-t-kbi-its tbody tr[data-row='4'] td:nth-child(1)");
        String after = String.join("|", column("p1-t-kbi-kernels", 6));
        assertFalse(before.equals(after), "the kernels of iteration 4 replaced those of iteration 3");
        // every launch is itemised, so the TC launches are known: kernels 0 and 4 on two devices, 1 and 5 times
        assertEquals("12", column("p1-t-kbi-its", 4).get(1), "TC kernel launches of iteration 4");
    }

    @Test
    void kernelsByOpFollowIterationThenOp() {
        view("kbo");
        page.click("#p1-t-kbo-its tbody tr[data-row='5'] td:nth-child(1)");
        List<String> ops = column("p1-t-kbo-ops", 0);
        assertEquals(6, ops.size(), "ops with kernels in iteration 5: " + ops);
        int linear = ops.indexOf("model/fc");
        assertTrue(linear >= 0, ops.toString());
        page.click("#p1-t-kbo-ops tbody tr:nth-child(" + (linear + 1) + ") td:nth-child(1)");
        List<String> kernels = column("p1-t-kbo-kernels", 1);
        assertEquals(4, kernels.size(), kernels.toString());
        assertTrue(column("p1-t-kbo-kernels", 0).stream().allMatch("model/fc"::equals));
    }

    @Test
    void iterationsViewShowsTheAggregationAndFilters() {
        view("its");
        String agg = page.evalString("document.getElementById('p1-v-its').textContent");
        assertTrue(agg.contains("aten::backward") && agg.contains("iterations 3 to 11 (9 profiled)"), agg);
        assertEquals("Showing 1 to 10 of 14 rows", info("p1-t-its"));
        page.type("#p1-t-its .dt-filters td:nth-child(2) input", "0");
        assertEquals(List.of("0", "1", "2", "12", "13"), column("p1-t-its", 0), "iterations outside the range");
        page.eval("document.querySelector('#p1-t-its .dt-size select').value = '25'");
        page.eval("document.querySelector('#p1-t-its .dt-size select').dispatchEvent(new Event('change'))");
        assertEquals(5, rows("p1-t-its"));
    }

    @Test
    void gpusViewListsEveryDevice() {
        view("gpus");
        assertEquals(List.of("0", "1", "2"), column("p1-t-gpus", 0));
        page.click("#p1-t-gpus tbody tr[data-row='2'] td:nth-child(2)");
        String detail = page.evalString("document.querySelector('[data-detail-for=\"p1-t-gpus\"]').textContent");
        assertTrue(detail.contains("Used\u2717 no"), detail);
    }

    @Test
    void findingsDrillDownToTheirRowsAndRowsLinkBack() {
        // the GPU finding (subject GPU 1, evidence: busiest GPU 0): its link shows the GPUs view with only those rows
        int card = page.evalInt("[...document.querySelectorAll('article.finding')].findIndex(a => a.textContent.includes('imbalanced-gpus'))");
        assertTrue(card >= 0);
        page.click("article.finding:nth-of-type(" + (card + 1) + ") .rows a.drill");
        page.waitFor(() -> !page.eval("document.getElementById('p1-v-gpus').hidden").asBoolean(), "GPUs view");
        assertEquals(List.of("0", "1"), column("p1-t-gpus", 0));
        assertEquals(2, page.evalInt("document.querySelectorAll('#p1-t-gpus tr.hl').length"));
        assertFalse(page.eval("document.querySelector('#p1-t-gpus .dt-chip').hidden").asBoolean());
        page.click("#p1-t-gpus .dt-chip button");
        assertEquals(3, rows("p1-t-gpus"), "all rows again");
        // the row links back to the finding
        String back = page.evalString("document.querySelector(\"#p1-t-gpus tr[data-row='1'] a.fl\").getAttribute('href')");
        assertEquals("#p1-f" + (card + 1), back);
        // the op finding highlights its op; the iteration-range finding 9 iterations
        page.eval("location.hash = 'hl=p1-t-its:3-11'");
        page.waitFor(() -> rows("p1-t-its") == 9, "9 highlighted iterations");
        assertEquals(9, page.evalInt("document.querySelectorAll('#p1-t-its tr.hl').length"));
        assertFalse(page.eval("document.getElementById('p1-v-its').hidden").asBoolean());
        // an address selecting an op (a fresh page: the script reads it at start)
        page.navigate("about:blank");
        page.navigate(url + "#sel=p1-t-ops:4");
        assertFalse(page.eval("document.getElementById('p1-v-ops').hidden").asBoolean());
        assertEquals("true", page.evalString("document.querySelector(\"#p1-t-ops tr[data-row='4']\").getAttribute('aria-selected')"));
    }

    /** The print stylesheet shows every view, without the controls, and Chromium prints several pages. */
    @Test
    void printsEveryViewAsADocument() throws Exception {
        page.call("Emulation.setEmulatedMedia", new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode()
                .put("media", "print"));
        assertEquals(7, page.evalInt("[...document.querySelectorAll('#p1 .view')].filter(v => getComputedStyle(v).display !== 'none').length"),
                "every view prints");
        assertEquals(0, page.evalInt("[...document.querySelectorAll('.dt-bar, .dt-pager, nav.views')].filter(e => getComputedStyle(e).display !== 'none').length"),
                "no controls on paper");
        // what A4 paper (794 CSS px wide at 96 dpi) gets: nothing wider than the page
        page.call("Emulation.setDeviceMetricsOverride", new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode()
                .put("width", 718).put("height", 1000).put("deviceScaleFactor", 1).put("mobile", false));
        assertTrue(page.evalInt("document.documentElement.scrollWidth") <= 718 + 2,
                "the printed page is no wider than the paper: " + page.evalInt("document.documentElement.scrollWidth"));
        page.screenshot(WORK.resolve("print-preview.png"), true);
        Path pdf = WORK.resolve("realistic.pdf");
        page.printToPdf(pdf);
        String raw = new String(Files.readAllBytes(pdf), StandardCharsets.ISO_8859_1);
        assertTrue(raw.startsWith("%PDF-"), "a PDF");
        int pages = HtmlReporterTest.count(raw, "/Type\\s*/Page[^s]");
        assertTrue(pages >= 7, "one page or more per view: " + pages);
    }

    @Test
    void screenshotsOfEveryViewAreRealPictures() throws Exception {
        for (String v : List.of("dash", "types", "ops", "kbi", "kbo", "its", "gpus")) {
            view(v);
            Path png = WORK.resolve("view-" + v + ".png");
            page.screenshot(png, false);
            BufferedImage img = ImageIO.read(png.toFile());
            assertEquals(1280, img.getWidth());
            java.util.Set<Integer> colors = new java.util.HashSet<>();
            for (int y = 0; y < img.getHeight(); y += 4) for (int x = 0; x < img.getWidth(); x += 4) colors.add(img.getRGB(x, y));
            assertTrue(colors.size() > 20, v + ": " + colors.size() + " colours");
        }
    }
}
