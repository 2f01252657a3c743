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
                "Tensor-core kernel efficiency", "System configuration", "Iterations", "Top 10 GPU ops")) {
            assertTrue(html.contains(">" + heading + "</h4>"), heading);
        }
        assertTrue(html.contains(">Guidance</h2>"));
        // every DLProf viewer view is a section reachable from the profile's navigation bar
        for (String[] view : new String[][] {{"dash", "Dashboard"}, {"types", "Op Type Summary"},
                {"ops", "Ops and Kernels"}, {"kbi", "Kernels by Iteration"}, {"kbo", "Kernels by Op"},
                {"its", "Iterations"}, {"gpus", "GPUs"}}) {
            assertTrue(html.contains("<li><a href=\"#p1-v-" + view[0] + "\">" + view[1] + "</a></li>"), "nav " + view[1]);
            assertTrue(html.contains("<section class=\"view\" id=\"p1-v-" + view[0] + "\""), "view " + view[1]);
            assertTrue(html.contains(">" + view[1] + "</h3>"), "heading " + view[1]);
        }
        assertTrue(html.contains("id=\"p1-f1\""), "first finding card");
        assertTrue(html.contains("id=\"p1-f7\""), "seventh finding card");
        assertTrue(html.contains("dlprof/gpu-underutilized"));
        // what the finding costs comes first on its card, in the words of every report
        int card = html.indexOf("id=\"p1-f1\"");
        int cost = html.indexOf("<p class=\"impact\"><span class=\"label\">Impact</span> <strong>≈ 41.0 ms/step, 13.8% of the step"
                + "</strong> · a fix recovers ≈ 30.0 ms/step (10.1%)", card);
        assertTrue(card > 0 && cost > card && cost < html.indexOf("<p class=\"problem\">", card), html.substring(card, card + 800));
        assertTrue(html.contains("aggregated iterations 3\u201311"), "aggregated range is marked in the chart");
        // dashboard and GPUs view; dashboard and Iterations view
        assertEquals(2, count(html, "<svg [^>]*aria-label=\"GPU utilization per device\""), "GPU charts");
        assertEquals(2, count(html, "<svg [^>]*aria-label=\"GPU time per iteration\""), "iteration charts");
        assertEquals(2 * 14, count(html, "<title>Iterations? \\d+"), "one tooltip per iteration in each chart");
        // findings are ordered as every report orders them: severity, then the share of the step a fix recovers
        assertTrue(html.indexOf("dlprof/gpu-underutilized") < html.indexOf("dlprof/amp-not-used"));
        assertTrue(html.indexOf("dlprof/amp-not-used") < html.indexOf("dlprof/dataloader-workers"),
                "a finding with an impact comes before a more severe one without");
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
            assertEquals(1, tags.stream().filter(t -> t.name().equals("script") && t.attrs().isEmpty()).count(),
                    "one script element runs");
            assertTrue(tags.stream().filter(t -> t.name().equals("script") && !t.attrs().isEmpty())
                    .allMatch(t -> t.attrs().keySet().equals(java.util.Set.of("type", "id"))
                            && t.attrs().get("type").equals("application/json")), "the others are inert data blocks");
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
        // the data blocks hold the hostile names as JSON: not one '<' in them (they are \\u003c escapes)
        Matcher block = Pattern.compile("<script type=\"application/json\" id=\"[a-z0-9-]+\">(.*?)</script>",
                Pattern.DOTALL).matcher(html);
        int blocks = 0;
        while (block.find()) {
            blocks++;
            assertFalse(block.group(1).contains("<") || block.group(1).contains(">") || block.group(1).contains("&"),
                    "markup characters in a data block");
        }
        assertEquals(8, blocks, "data blocks");
        String body = html.substring(html.indexOf("</style>"), html.lastIndexOf("<script>"))
                .replaceAll("(?s)<script type=\"application/json\" id=\"[a-z0-9-]+\">.*?</script>", "");
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
        // how fast is the benchmark's question (bench: HtmlReportBenchmark), not a unit test's on a shared machine
        String html = render(SampleRuns.large());
        int bytes = html.getBytes(StandardCharsets.UTF_8).length;
        assertTrue(bytes < 3_000_000, "report of " + bytes + " bytes");
        assertTrue(html.contains("Showing the first 200 of 2000 findings"));
        assertTrue(html.contains("Each bar shows the mean of 25 consecutive iterations."), "Iterations view chart");
        assertTrue(html.contains("Each bar shows the mean of 84 consecutive iterations."), "dashboard chart");
        // every op, kernel row and iteration is in the data; the page shows the first 10 and says how many exist
        assertTrue(html.contains("<div class=\"dt\" id=\"p1-t-ops\" data-block=\"p1-d-ops\""));
        assertTrue(html.contains("this is the first page: 10 of 5,000 rows."), "ops table note");
        assertTrue(html.contains("this is the first page: 10 of 5,001 rows."), "kernels table note");
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
