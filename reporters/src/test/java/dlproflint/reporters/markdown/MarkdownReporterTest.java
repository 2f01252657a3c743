package dlproflint.reporters.markdown;

import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.StackFrame;
import dlproflint.findings.Evidence;
import dlproflint.findings.Finding;
import dlproflint.findings.Impact;
import dlproflint.findings.LintRun;
import dlproflint.findings.Units;
import dlproflint.findings.PackInfo;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.Severity;
import dlproflint.findings.Subject;
import dlproflint.findings.FindingOrder;
import dlproflint.reporters.Reporters;
import dlproflint.reporters.ReportOptions;
import dlproflint.reporters.TestRuns;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MarkdownReporterTest {
    /** Strings that are markup in GitHub-flavoured markdown or HTML, or that GitHub turns into pings and links. */
    static final List<String> HOSTILE = List.of(
            "a | b | c",
            "`code` and ``double``",
            "<script>document.title='pwned'</script>",
            "<img src=x onerror=alert(1)> <!-- comment",
            "**bold** _em_ ~~strike~~ $x^2$",
            "[click](javascript:alert(1)) ![img](http://evil.example/x.png)",
            "@octocat #1 :tada: GH-1",
            "http://evil.example www.evil.example user@evil.example",
            "line one\nline two\r\n# heading\n| --- |",
            "ctl\u0000\u0007\u001b[31m\u0085\u202Eevil \\ backslash &amp; &lt;");

    static String render(LintRun run) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Reporters.create("markdown", ReportOptions.PLAIN).render(run, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** What a reader must see for a profile string: newlines as spaces, control characters as \xNN escapes. */
    static String shown(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (c == '\n' || c == '\r' || c == '\t') b.append(' ');
            else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) b.append(String.format("\\x%02X", (int) c));
            else if (c == '\u202E') b.append("\\u202E");
            else b.append(c);
        }
        return b.toString().strip();
    }

    @Test
    void metricsThenFindingsInTheCommonOrderWithHelpLinks() throws IOException {
        LintRun run = TestRuns.single("/data/run1/nsys_profile.sqlite");
        String md = render(run);
        // kept for a look (and for pasting into a GitHub comment preview)
        java.nio.file.Files.createDirectories(java.nio.file.Path.of("target/markdown-report"));
        java.nio.file.Files.writeString(java.nio.file.Path.of("target/markdown-report/single.md"), md);
        MarkdownDoc doc = MarkdownDoc.parse(md);
        assertTrue(md.startsWith("## dlprof-lint: 1 error, 1 warning, 1 note in 1 profile\n"), md);
        assertTrue(md.contains("\n### nsys\\_profile.sqlite\n") || md.contains("\n### nsys_profile.sqlite\n"),
                "the heading is the file name, not the absolute path: " + md);
        assertFalse(md.contains("/data/run1"), "no absolute path of the machine that ran it");
        List<List<List<String>>> tables = doc.tables();
        assertEquals(2, tables.size(), md);

        List<List<String>> metrics = tables.get(0);
        assertEquals(List.of("Metric", "Value"), metrics.get(0));
        assertEquals(List.of("Step time (mean)", "not split into steps"), metrics.get(1), "the facts hold no iteration");
        assertEquals(List.of("GPU utilization", "42.5% of wall time (kernels)"), metrics.get(3));
        assertEquals(List.of("Tensor-core share of kernel time", "12.5%"), metrics.get(4));
        assertEquals(List.of("Data-loader share", "10.0% of wall time"), metrics.get(5));
        assertEquals(List.of("Host blocked in synchronisation", "no synchronisation API calls recorded"), metrics.get(6));
        assertEquals(List.of("Peak GPU memory", "23.3% of device memory"), metrics.get(7));
        assertEquals(List.of("GPUs", "2 \u00D7 NVIDIA A100-SXM4-40GB"), metrics.get(9));

        List<List<String>> findings = tables.get(1);
        assertEquals(List.of("Severity", "Rule", "Finding", "Impact"), findings.get(0));
        List<Finding> expected = FindingOrder.sorted(run.results().get(0).findings());
        assertEquals(expected.size(), findings.size() - 1);
        for (int i = 0; i < expected.size(); i++) {
            List<String> row = findings.get(i + 1);
            assertTrue(row.get(0).endsWith(expected.get(i).severity().label()), row.toString());
            assertEquals(expected.get(i).ruleId(), row.get(1));
            assertEquals(shown(expected.get(i).problem()), row.get(2));
            assertEquals(expected.get(i).impact() == null ? "\u2014" : Units.impact(expected.get(i).impact()), row.get(3),
                    "the impact as every human-readable report writes it");
        }
        List<MarkdownDoc.Link> links = doc.links();
        assertEquals(expected.stream().map(Finding::helpUri).toList(), links.stream().map(MarkdownDoc.Link::destination).toList());
        assertTrue(md.contains("<details><summary>Next steps</summary>"), md);
        assertTrue(md.contains("1 suppressed or baselined"), md);
        assertTrue(md.contains("The reader noted:\n\n- 2 NVTX ranges were never closed"), "reader warnings are shown: " + md);
    }

    @Test
    void impactIsShownWhenAFindingHasOne() throws IOException {
        LintRun base = TestRuns.single("run.sqlite");
        ProfileResult r = base.results().get(0);
        List<Finding> fs = new ArrayList<>();
        for (Finding f : r.findings()) {
            Impact impact = f.ruleId().endsWith("gpu-underutilized")
                    ? Impact.perStep(12_300_000, 28_100_000, 8_100_000, "idle time between kernels") : null;
            fs.add(withImpact(f, impact));
        }
        String md = render(new LintRun(base.toolVersion(), base.packs(), base.rules(),
                List.of(new ProfileResult(r.facts(), fs, r.suppressed()))));
        List<List<String>> table = MarkdownDoc.parse(md).tables().get(1);
        assertEquals(List.of("Severity", "Rule", "Finding", "Impact"), table.get(0));
        assertEquals("≈ 12.3 ms/step, 43.8% of the step; a fix recovers ≈ 8.1 ms/step (28.8%)", table.get(1).get(3), md);
        assertEquals("\u2014", table.get(2).get(3), "a finding without impact shows a dash");

        List<Finding> none = new ArrayList<>();
        for (Finding f : r.findings()) none.add(withImpact(f, null));
        md = render(new LintRun(base.toolVersion(), base.packs(), base.rules(),
                List.of(new ProfileResult(r.facts(), none, r.suppressed()))));
        assertEquals(List.of("Severity", "Rule", "Finding"), MarkdownDoc.parse(md).tables().get(1).get(0),
                "no impact column when no finding has one");
    }

    @Test
    void profileStringsStayInertText() throws IOException {
        LintRun run = hostileRun();
        String md = render(run);
        MarkdownDoc doc = MarkdownDoc.parse(md);

        assertEquals(List.of("<details><summary>Next steps</summary>", "</details>"), doc.rawHtml(),
                "the only raw HTML is our own folding block");
        assertEquals(List.of(), doc.formattingInTables(), "no emphasis, code span or image came from a string");
        assertEquals(List.of(), doc.links(), "the hostile rule's javascript: help link is not a link, and nothing else is");
        String html = doc.html();
        assertFalse(html.contains("<script"), html);
        assertFalse(html.contains("<img"), html);
        assertFalse(html.contains("<h1"), "a newline in a name cannot start a heading");

        List<List<String>> findings = doc.tables().get(1);
        assertEquals(HOSTILE.size() + 1, findings.size(), "one row per finding: no pipe or newline split a row");
        for (List<String> row : findings) assertEquals(3, row.size(), "no pipe added a column: " + row);
        List<String> problems = findings.stream().skip(1).map(row -> row.get(2)).toList();
        for (String h : HOSTILE) assertTrue(problems.contains(shown(h)), "shown as text exactly: " + shown(h) + " in " + problems);

        // GitHub-only syntax the CommonMark parser does not know: mentions, issue references, emoji, autolinks
        for (String raw : List.of("@octocat", "#1", ":tada:", "http://", "www.evil", "user@evil")) {
            assertFalse(java.util.regex.Pattern.compile("(?<!\\\\)" + java.util.regex.Pattern.quote(raw)).matcher(md).find(),
                    "escaped so GitHub does not link it: " + raw);
        }
        for (int i = 0; i < md.length(); i++) {
            char c = md.charAt(i);
            assertFalse((c < 0x20 && c != '\n') || (c >= 0x7f && c <= 0x9f) || c == '\u202E', "raw control character " + (int) c);
        }
    }

    @Test
    void missingSignalsAreNamedNotZero() throws IOException {
        ProfileFacts facts = ProfileFacts.builder().profile(new ProfileInfo("empty.sqlite", "nsys-sqlite", null, null, 0, 0))
                .warning("nsys.no-kernels", "no CUDA kernel records").build();
        String md = render(new LintRun("0.1.0", List.of(), List.of(), List.of(new ProfileResult(facts, List.of(), List.of()))));
        List<List<String>> metrics = MarkdownDoc.parse(md).tables().get(0);
        assertEquals(List.of("not split into steps", "not split into steps", "no GPU activity recorded",
                "no GPU activity recorded", "no data loader seen", "no synchronisation API calls recorded", "not recorded",
                "not recorded", "none recorded"), metrics.stream().skip(1).map(r -> r.get(1)).toList());
        assertTrue(md.contains("No findings."), md);
        assertTrue(md.contains("- no CUDA kernel records"), md);
    }

    @Test
    void largeRunsStayUnderGithubsCommentLimit() throws IOException {
        List<ProfileResult> results = new ArrayList<>();
        for (int p = 0; p < 40; p++) {
            String path = "rank" + p + "/nsys_profile.sqlite";
            List<Finding> fs = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                fs.add(TestRuns.finding("slow-kernel", Severity.WARNING, "kernels", Subject.kernel("k" + i),
                        "kernel " + "k".repeat(i == 0 ? 10_000_000 : 40) + i + " is slow", "make it fast " + i,
                        Evidence.of(), new StackFrame("train.py", i, "f"), path));
            }
            results.add(new ProfileResult(TestRuns.facts(path), fs, List.of()));
        }
        String md = render(new LintRun("0.1.0", List.of(new PackInfo("dlprof", "1.0.0", "d", "builtin")), TestRuns.rules(), results));
        assertTrue(md.length() <= MarkdownReporter.MAX_CHARS, "length " + md.length());
        assertTrue(md.contains("more findings not shown here"), "the cut is said");
        MarkdownDoc doc = MarkdownDoc.parse(md);
        long profileHeadings = md.lines().filter(l -> l.startsWith("### ")).count();
        assertTrue(profileHeadings >= 10, "the budget is shared, not spent on the first profile: " + profileHeadings);
        assertTrue(md.contains("more profiles not shown here") || profileHeadings == 40, md.substring(md.length() - 300));
        assertNotNull(doc.tables());
    }

    private static LintRun hostileRun() {
        String path = "runs/" + HOSTILE.get(0) + "/nsys_profile.sqlite";
        List<Finding> fs = new ArrayList<>();
        for (String h : HOSTILE) {
            fs.add(new Finding("site/" + h, "site", h, Severity.ERROR, h, h, h, Evidence.of(h, h), new Subject("op", h, h),
                    new StackFrame(h, 3, h), "javascript:document.title='pwned'", path, h, null));
        }
        ProfileFacts facts = ProfileFacts.builder().profile(new ProfileInfo(path, HOSTILE.get(2), HOSTILE.get(3), null, 0, 1))
                .gpu(new dlproflint.facts.GpuInfo(0, HOSTILE.get(1), 80, 1, 8, 0, -1)).warning("x", HOSTILE.get(8)).build();
        return new LintRun(HOSTILE.get(4), List.of(new PackInfo(HOSTILE.get(5), HOSTILE.get(6), "d", "builtin")), List.of(),
                List.of(new ProfileResult(facts, fs, List.of())));
    }

    private static Finding withImpact(Finding f, Impact impact) {
        return TestRuns.withImpact(f, impact);
    }
}
