package dlproflint.reporters.html;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.compare.RunComparison;
import dlproflint.facts.Direction;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.Stat;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code compare}'s view in a real headless Chromium: reachable from the view bar, its tables sort and search. */
class ComparisonViewBrowserTest {
    private static final Path WORK = Path.of("target", "html-report-browser", "comparison");
    private static HeadlessChromium chromium;
    private DevToolsPage page;

    @BeforeAll
    static void setUp() throws IOException {
        chromium = HeadlessChromium.require();
        Files.createDirectories(WORK);
    }

    @AfterEach
    void close() throws IOException {
        if (page == null) return;
        try {
            page.screenshot(WORK.resolve("comparison.png"), false);
            assertEquals(List.of(), page.problems(), "no script error in the page");
        } finally {
            page.close();
        }
    }

    private static ProfileFacts run(Map<String, Long> opsMs) {
        ProfileFacts.Builder b = ProfileFacts.builder().profile(new ProfileInfo("run.json", "kineto", null, null, 0, 1_000_000_000L));
        opsMs.forEach((name, ms) -> b.op(new OpFact(name, name, "x", Direction.FPROP, 1, Stat.EMPTY, Stat.of(ms * 1_000_000),
                Stat.EMPTY, Stat.EMPTY, false, false, 0, 1, null, null, List.of())));
        return b.build();
    }

    private List<String> column(String table, int col) {
        JsonNode n = page.eval("[...document.querySelectorAll('#" + table + " tbody tr[data-row]')].map(r => r.cells["
                + col + "].textContent)");
        List<String> out = new ArrayList<>();
        n.forEach(x -> out.add(x.asText()));
        return out;
    }

    @Test
    void theComparisonViewIsAViewWithSortableSearchableTables() throws Exception {
        ProfileFacts base = run(Map.of("aten::conv2d", 100L, "aten::relu", 30L, "aten::add", 5L));
        ProfileFacts head = run(Map.of("aten::conv2d", 300L, "aten::relu", 31L, "aten::add", 50L, "aten::dropout", 7L));
        head = head.withComparison(RunComparison.of(base, head));
        LintRun lint = new LintRun("0.1.0", List.of(), List.of(), List.of(new ProfileResult(head, List.of(), List.of())));
        Path file = WORK.resolve("comparison.html").toAbsolutePath();
        try (var out = Files.newOutputStream(file)) {
            new HtmlReporter().render(lint, out);
        }
        page = chromium.open(1280, 1000, WORK);
        page.navigate(file.toUri().toString());
        assertEquals("ready", page.evalString("document.documentElement.getAttribute('data-report')"), "script ran");
        page.click("nav.views a[href='#p1-v-cmp']");
        page.waitFor(() -> !page.eval("document.getElementById('p1-v-cmp').hidden").asBoolean(), "comparison view");
        assertEquals(List.of("aten::conv2d", "aten::add", "aten::dropout", "aten::relu"), column("p1-t-cmp-ops", 0),
                "largest growth per run first");
        assertEquals("new", column("p1-t-cmp-ops", 5).get(2));
        page.click("#p1-t-cmp-ops thead th[data-key='name'] button");
        assertEquals(List.of("aten::add", "aten::conv2d", "aten::dropout", "aten::relu"), column("p1-t-cmp-ops", 0));
        page.type("#p1-t-cmp-ops .dt-search input", "relu");
        assertEquals(List.of("aten::relu"), column("p1-t-cmp-ops", 0));
        assertTrue(page.evalString("document.getElementById('p1-v-cmp').textContent")
                .contains("3 of 3 base and 4 head ops in common, 98.2% of the GPU time"));
    }
}
