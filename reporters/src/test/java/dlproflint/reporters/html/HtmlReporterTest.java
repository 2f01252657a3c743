package dlproflint.reporters.html;

import dlproflint.findings.LintRun;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The HTML report as text (no browser): self-contained, escaped, CSP-consistent, deterministic, small. */
class HtmlReporterTest {

    static String render(LintRun run) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new HtmlReporter().render(run, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void rendersTheDashboardAndFindingsOfEveryProfile() throws IOException {
        String html = render(SampleRuns.realistic());
        for (String heading : List.of("Performance summary", "GPU utilization", "Op summary", "Kernel summary",
                "Tensor-core kernel efficiency", "System configuration", "Iterations", "Top 10 GPU ops", "Guidance")) {
            assertTrue(html.contains(">" + heading + "</h3>") || html.contains(">" + heading + "</h2>"), heading);
        }
        assertTrue(html.contains("id=\"p1-f1\""), "first finding card");
        assertTrue(html.contains("id=\"p1-f4\""), "fourth finding card");
        assertTrue(html.contains("dlprof/gpu-underutilized"));
        // what the finding costs comes first on its card, escaped like every other text
        int card = html.indexOf("id=\"p1-f1\"");
        int cost = html.indexOf("<p class=\"impact\"><span class=\"label\">Cost</span> ≈ 174.6 ms/step, 37.3% of the step; "
                + "a fix recovers ≈ 83.8 ms/step (17.9%)", card);
        assertTrue(card > 0 && cost > card && cost < html.indexOf("<p class=\"problem\">", card), html.substring(card, card + 800));
        assertTrue(html.contains("GPU idle time &lt;b&gt;(100% − utilization)&lt;/b&gt;"), "the model is text, not markup");
        assertEquals(1, count(html, "<p class=\"impact\">"), "no cost line on cards without an impact");
        assertTrue(html.contains("aggregated iterations 3\u201311"), "aggregated range is marked in the chart");
        assertEquals(1, count(html, "<svg [^>]*aria-label=\"GPU utilization per device\""), "GPU chart");
        assertEquals(1, count(html, "<svg [^>]*aria-label=\"GPU time per iteration\""), "iteration chart");
        assertEquals(14, count(html, "<title>Iterations? \\d+"), "one tooltip per iteration");
        // findings are ordered by severity: the error comes first
        assertTrue(html.indexOf("dlprof/gpu-underutilized") < html.indexOf("dlprof/amp-not-used"));
        // the recommendation's URL became a link; the rule's help page is linked
        assertTrue(html.contains("<a href=\"https://docs.nvidia.com/deeplearning/performance/"));
        assertTrue(html.contains("href=\"" + SampleRuns.HELP + "amp-not-used.md\""));
        assertTrue(html.contains("1 suppressed"));
    }

    @Test
    void isSelfContainedWithoutNetworkResourcesStyleAttributesOrEventHandlers() throws IOException {
        for (LintRun run : List.of(SampleRuns.realistic(), SampleRuns.hostile())) {
            String html = render(run);
            List<HtmlTags> tags = HtmlTags.parse(html);
            assertTrue(tags.size() > 200, "parsed " + tags.size() + " tags");
            for (HtmlTags t : tags) {
                assertFalse(List.of("img", "iframe", "object", "embed", "audio", "video", "source", "base", "form",
                        "link", "image", "use", "foreignobject").contains(t.name()), "no <" + t.name() + ">");
                for (var a : t.attrs().entrySet()) {
                    String name = a.getKey(), value = a.getValue().trim().toLowerCase();
                    assertFalse(name.startsWith("on"), "event handler " + name + " on <" + t.name() + ">");
                    assertFalse(name.equals("style"), "style= on <" + t.name() + ">");
                    assertFalse(name.equals("src") || name.equals("srcset") || name.equals("action"),
                            name + "= on <" + t.name() + ">");
                    if (name.equals("href") || name.equals("xlink:href")) {
                        assertTrue(value.startsWith("#") || t.name().equals("a") && value.matches("https?://.*"),
                                "only in-page links and http(s) navigation links: " + t.name() + " " + value);
                    }
                }
            }
            assertFalse(html.contains("@import") || html.contains("url("), "no CSS fetches");
            assertEquals(1, tags.stream().filter(t -> t.name().equals("script")).count(), "one script element");
            assertEquals(1, tags.stream().filter(t -> t.name().equals("style")).count(), "one style element");
        }
    }

    @Test
    void contentSecurityPolicyHashesMatchTheInlineStyleAndScript() throws IOException {
        String html = render(SampleRuns.realistic());
        Matcher csp = Pattern.compile("<meta http-equiv=\"Content-Security-Policy\" content=\"([^\"]+)\">")
                .matcher(html);
        assertTrue(csp.find(), "CSP meta present");
        String policy = csp.group(1).replace("&#39;", "'");
        assertTrue(policy.startsWith("default-src 'none'"), policy);
        assertTrue(csp.start() < html.indexOf("<style>"), "the policy precedes the style it governs");
        String style = between(html, "<style>", "</style>");
        String script = between(html, "<script>", "</script>");
        assertTrue(policy.contains("style-src '" + InlineAssets.sha256(style) + "'"), policy);
        assertTrue(policy.contains("script-src '" + InlineAssets.sha256(script) + "'"), policy);
        assertFalse(policy.contains("unsafe-inline") || policy.contains("unsafe-eval"), policy);
    }

    @Test
    void escapesHostileNamesAndTexts() throws IOException {
        String html = render(SampleRuns.hostile());
        String body = html.substring(html.indexOf("</style>"), html.lastIndexOf("<script>"));
        assertFalse(body.contains("<script"), "no script element from the profile");
        assertFalse(body.contains("<img"), "no img element from the profile");
        assertFalse(body.contains("<svg onload"), "no svg element from the profile");
        assertFalse(body.contains("</style><"), "no early end of the style element");
        assertTrue(body.contains("&lt;script&gt;window.__x=1&lt;/script&gt;"), "shown as text");
        assertTrue(body.contains("=HYPERLINK(&quot;http://x&quot;)"), "formula shown as text");
        assertTrue(body.contains("cutlass::Kernel&lt;cutlass::gemm::Gemm&lt;float, 128&gt;&gt;(Params&amp;) &amp; more"));
        assertTrue(HtmlTags.parse(html).stream().flatMap(t -> t.attrs().values().stream())
                .noneMatch(v -> v.toLowerCase().contains("javascript:")), "a javascript: help URI is never a link");
        for (char c : html.toCharArray()) {
            assertTrue(c >= 0x20 && (c < 0x7F || c > 0x9F) || c == '\n' || c == '\t',
                    "control character U+" + Integer.toHexString(c) + " in output");
            assertFalse(c == '\u202E', "bidi override in output");
        }
        assertTrue(body.contains("ctl\\x00\\x07\\x1B[31m\\x85\\u202Eevil"), "control characters shown escaped");
    }

    @Test
    void staysSmallForLargeProfilesAndHugeNames() throws IOException {
        long t0 = System.nanoTime();
        String html = render(SampleRuns.large());
        long ms = (System.nanoTime() - t0) / 1_000_000;
        int bytes = html.getBytes(StandardCharsets.UTF_8).length;
        assertTrue(bytes < 1_500_000, "report of " + bytes + " bytes");
        assertTrue(ms < 10_000, "rendering took " + ms + " ms");
        assertTrue(html.contains("Showing the first 200 of 2000 findings"));
        assertTrue(html.contains("Each bar shows the mean of 25 consecutive iterations."));
        assertTrue(html.contains("top 50 of 5000 ops"));
        assertFalse(html.contains("k".repeat(Text.MAX_CHARS + 1)), "a 10 MB name is cut");
    }

    @Test
    void isDeterministic() throws IOException {
        assertEquals(render(SampleRuns.realistic()), render(SampleRuns.realistic()));
    }

    @Test
    void rendersAnEmptyRun() throws IOException {
        String html = render(new LintRun("0.1.0", List.of(), List.of(), List.of()));
        assertTrue(html.contains("No profile was linted."));
    }

    static int count(String s, String regex) {
        Matcher m = Pattern.compile(regex).matcher(s);
        int n = 0;
        while (m.find()) n++;
        return n;
    }

    static String between(String s, String open, String close) {
        int a = s.indexOf(open);
        int b = s.indexOf(close, a);
        return s.substring(a + open.length(), b);
    }
}
