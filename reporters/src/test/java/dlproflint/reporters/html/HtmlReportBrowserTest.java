package dlproflint.reporters.html;

import dlproflint.findings.LintRun;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Opens rendered reports in a real headless Chromium: the dashboard and findings render, the sort
 * script runs under the report's own Content-Security-Policy, the screenshot is a real picture, and
 * hostile names run no script. Files stay in {@code target/html-report-browser/} for inspection.
 */
class HtmlReportBrowserTest {
    private static final Path WORK = Path.of("target", "html-report-browser");
    private static HeadlessChromium chromium;

    @BeforeAll
    static void setUp() throws IOException {
        chromium = HeadlessChromium.require();
        Files.createDirectories(WORK);
    }

    private static Path write(String name, LintRun run) throws IOException {
        Path file = WORK.resolve(name).toAbsolutePath();
        try (OutputStream out = Files.newOutputStream(file)) {
            new HtmlReporter().render(run, out);
        }
        return file;
    }

    @Test
    void dashboardAndFindingsRenderAndTheScriptRuns() throws Exception {
        Path file = write("realistic.html", SampleRuns.realistic());
        String dom = chromium.dumpDom(file.toUri().toString(), WORK);
        // the page's script ran: the small dashboard tables sort, the view tables were enhanced
        int sortable = HtmlReporterTest.count(dom, "<table class=\"data sortable");
        assertEquals(3, sortable, "GPU, findings and rules tables");
        assertEquals(sortable, HtmlReporterTest.count(dom, "data-sortable=\"ready\""), "script enhanced every table");
        assertEquals(11, HtmlReporterTest.count(dom, "<div class=\"dt\" id=\"[^\"]+\"[^>]* data-ready=\"1\""),
                "every view table");
        assertTrue(HtmlReporterTest.count(dom, "<button [^>]*class=\"sort\"") >= 100, "sort buttons");
        for (String section : List.of("Performance summary", "GPU utilization", "Op summary", "Kernel summary",
                "Tensor-core kernel efficiency", "Iterations", "Top 10 GPU ops", "System configuration")) {
            assertTrue(dom.contains(">" + section + "</h4>"), section);
        }
        assertTrue(dom.contains("id=\"p1-f1\"") && dom.contains("id=\"p1-f7\""), "finding cards");
        assertTrue(dom.contains("aria-label=\"GPU time per iteration\""), "iteration chart in the DOM");
        assertTrue(dom.contains("NVIDIA A100-SXM4-80GB"), "system configuration");
        // one view shown: the dashboard
        assertEquals(6, HtmlReporterTest.count(dom, "<section class=\"view\" id=\"p1-v-[a-z]+\" aria-labelledby=\"[^\"]+\" hidden=\"\""));
    }

    /** Jenkins serves archived HTML with a CSP that forbids every script and inline style. */
    @Test
    void readsWithoutScriptAndStyleUnderAStrictPolicy() throws Exception {
        Path file = write("strict-csp.html", SampleRuns.realistic());
        String html = Files.readString(file, StandardCharsets.UTF_8);
        html = html.replaceFirst("<meta http-equiv=\"Content-Security-Policy\" content=\"[^\"]+\">",
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src 'self'; style-src 'self'\">");
        Files.writeString(file, html, StandardCharsets.UTF_8);
        String dom = chromium.dumpDom(file.toUri().toString(), WORK);
        assertFalse(dom.contains("data-sortable=\"ready\""), "the script was blocked");
        for (String section : List.of("Performance summary", "GPU utilization", "Iterations", "Top 10 GPU ops",
                "System configuration")) {
            assertTrue(dom.contains(">" + section + "</h4>"), section);
        }
        assertEquals(7, HtmlReporterTest.count(dom, "<article class=\"finding "), "every finding card");
        // every view is there, one after the other, each table with its first page and a note
        assertFalse(dom.contains(" hidden=\"\""), "nothing hidden without the script");
        assertEquals(11, HtmlReporterTest.count(dom, "<p class=\"note dt-nojs\">Searching, sorting and paging this table need JavaScript"));
        assertTrue(dom.contains("this is the first page: 10 of 12 rows."), "the ops table says how many rows exist");
        Path png = WORK.resolve("strict-csp.png").toAbsolutePath();
        chromium.screenshot(file.toUri().toString(), png, 1280, 2000, WORK);
        // unstyled, the charts still draw in their colours: they use presentation attributes, not CSS
        Set<Integer> colors = new HashSet<>();
        BufferedImage img = ImageIO.read(png.toFile());
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) colors.add(img.getRGB(x, y));
        }
        assertTrue(colors.contains(0xFF009E73) && colors.contains(0xFF0072B2), "chart colours drawn without CSS");
    }

    @Test
    void sortStateInTheAddressSortsATable() throws Exception {
        Path file = write("sorted.html", SampleRuns.realistic());
        // GPU table, column 2 = kernels, ascending: the server renders it by device
        String dom = chromium.dumpDom(file.toUri() + "#sort=p1-gputable:2:asc", WORK);
        String table = dom.substring(dom.indexOf("id=\"p1-gputable\""));
        table = table.substring(0, table.indexOf("</table>"));
        assertTrue(table.contains("aria-sort=\"ascending\""), "header marked as sorted");
        Matcher m = Pattern.compile("<tr[^>]*><td data-sort=\"(\\d+)\">").matcher(table);
        List<String> devices = new java.util.ArrayList<>();
        while (m.find()) devices.add(m.group(1));
        assertEquals(List.of("2", "1", "0"), devices, "rows ascending by kernels: 0, 47,980, 48,210");
    }

    @Test
    void screenshotIsANonTrivialPicture() throws Exception {
        Path file = write("screenshot.html", SampleRuns.realistic());
        Path png = WORK.resolve("realistic.png").toAbsolutePath();
        Files.deleteIfExists(png);
        chromium.screenshot(file.toUri().toString(), png, 1280, 2000, WORK);
        byte[] bytes = Files.readAllBytes(png);
        assertTrue(bytes.length > 30_000, "PNG of " + bytes.length + " bytes");
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(1280, img.getWidth());
        assertEquals(2000, img.getHeight());
        Set<Integer> colors = new HashSet<>();
        int background = img.getRGB(img.getWidth() - 1, img.getHeight() / 2);
        long differing = 0;
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                int rgb = img.getRGB(x, y);
                colors.add(rgb);
                if (rgb != background) differing++;
            }
        }
        long sampled = (long) (img.getWidth() / 2) * (img.getHeight() / 2);
        assertTrue(colors.size() > 200, "distinct colours: " + colors.size());
        assertTrue(differing > sampled / 5, "pixels differing from the background: " + differing + " of " + sampled);
        // the report's chart colours are on screen: tensor-core green and other-kernel blue
        assertTrue(colors.contains(0xFF009E73) && colors.contains(0xFF0072B2), "chart colours drawn");
    }

    @Test
    void hostileNamesRunNoScriptAndShowAsText() throws Exception {
        Path file = write("hostile.html", SampleRuns.hostile());
        String dom = chromium.dumpDom(file.toUri().toString(), WORK);
        // the hostile strings contain document.title='pwned' as text; had one run, the title would say so
        Matcher title = Pattern.compile("<title>(.*?)</title>", Pattern.DOTALL).matcher(dom);
        assertTrue(title.find());
        // the title holds the (hostile) profile name as text; an injected script would have replaced it
        assertTrue(title.group(1).startsWith("dlprof-lint report \u00B7 "), "title replaced: " + title.group(1));
        assertEquals(1, HtmlReporterTest.count(dom, "<script>"), "only the report's own script element runs");
        assertEquals(HtmlReporterTest.count(dom, "<script"), 1 + HtmlReporterTest.count(dom,
                "<script type=\"application/json\" id=\"p1-d-[a-z]+\">"), "the others are the data blocks");
        assertFalse(Pattern.compile("<img[\\s>]").matcher(dom).find(), "no injected img element");
        assertFalse(Pattern.compile("<svg onload").matcher(dom).find(), "no injected svg element");
        assertTrue(dom.contains("&lt;script&gt;window.__x=1&lt;/script&gt;"), "markup shown as text");
        assertTrue(dom.contains("=HYPERLINK(\"http://x\")"), "formula shown as text");
        assertTrue(dom.contains("data-sortable=\"ready\""), "the report's own script still ran");
        assertTrue(dom.contains("http-equiv=\"Content-Security-Policy\""), "CSP meta present");
        chromium.screenshot(file.toUri().toString(), WORK.resolve("hostile.png").toAbsolutePath(), 1280, 2000, WORK);
    }

    /** Second line of defence: even markup that escaping missed cannot run, because of the CSP hashes. */
    @Test
    void contentSecurityPolicyBlocksScriptThatEscapingMissed() throws Exception {
        Path file = write("tampered.html", SampleRuns.realistic());
        String html = Files.readString(file, StandardCharsets.UTF_8);
        String injected = "<script>document.title='pwned-script'</script>"
                + "<img src=\"data:,x\" onerror=\"document.title='pwned-handler'\">"
                + "<div style=\"display:none\" id=\"styled\">x</div>";
        html = html.replace("<main class=\"wrap\">", "<main class=\"wrap\">" + injected);
        Files.writeString(file, html, StandardCharsets.UTF_8);
        String dom = chromium.dumpDom(file.toUri().toString(), WORK);
        assertTrue(dom.contains("<script>document.title='pwned-script'</script>"), "the injected script is in the DOM");
        Matcher title = Pattern.compile("<title>(.*?)</title>", Pattern.DOTALL).matcher(dom);
        assertTrue(title.find());
        assertEquals("dlprof-lint report \u00B7 resnet50-amp-off/nsys_profile.sqlite", title.group(1),
                "CSP blocked the injected script and handler");
        assertTrue(dom.contains("data-sortable=\"ready\""), "the report's own script, allowed by its hash, ran");
    }
}
