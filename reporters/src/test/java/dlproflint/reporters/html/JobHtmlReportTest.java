package dlproflint.reporters.html;

import dlproflint.facts.CollectiveKind;
import dlproflint.facts.CollectiveSummary;
import dlproflint.facts.JobFacts;
import dlproflint.facts.JobInfo;
import dlproflint.facts.JobInput;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.RankSpread;
import dlproflint.facts.RankStats;
import dlproflint.facts.RankStep;
import dlproflint.findings.Evidence;
import dlproflint.findings.Finding;
import dlproflint.findings.Fingerprint;
import dlproflint.findings.Impact;
import dlproflint.findings.JobResult;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.Severity;
import dlproflint.findings.Subject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTML report of a job: the Job view with both heat maps, the ranks, collectives and inputs tables; profile
 * strings that try to become markup stay text (in the page, the SVG and the data blocks); large jobs are binned
 * so the page stays small; in Chromium the page runs without errors and the ranks table sorts slowest first.
 */
class JobHtmlReportTest {
    private static final String HOSTILE = "rank-<script>alert(1)</script>\"'&.json";

    static LintRun job(int ranks, int steps) {
        List<RankStats> stats = new ArrayList<>();
        List<RankStep> cells = new ArrayList<>();
        List<JobInput> inputs = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            String file = r == 3 ? HOSTILE : "job/rank-" + r + ".json";
            double work = r == 3 ? 150e6 : 100e6 + r;
            stats.add(new RankStats(r, file, steps, 150e6, 80e6, 40e6, 20e6, 1e6, 10e6, 150e6 - work, work, r == 3 ? steps : 0, 50));
            for (int s = 0; s < steps; s++) {
                cells.add(new RankStep(r, 100 + s, 150_000_000 + s, 80_000_000, 40_000_000, r == 3 ? 1_000_000 : 20_000_000,
                        1_000_000, 10_000_000, r == 3 ? 0 : 50_000_000));
            }
            inputs.add(new JobInput(file, "kineto", r, "distributedInfo", JobInput.USED, ""));
        }
        inputs.add(new JobInput("job/<b>bad</b>.json", null, -1, null, JobInput.UNREADABLE, "invalid JSON <i>here</i>"));
        RankSpread s = RankSpread.of(new double[] {100e6, 150e6});
        JobInfo info = new JobInfo("job", ranks, "distributedInfo", "distributedInfo", "nccl", ranks + 1, ranks, "", steps,
                "step-number", true, s, s, s, s, s, s, s, s, 50);
        JobFacts facts = new JobFacts(info, stats, cells,
                List.of(new CollectiveSummary(CollectiveKind.ALL_REDUCE, ranks, 5, 4e6, 40e6, 30e6, 75)), inputs,
                List.of("note with <em>markup</em>"));
        Subject sub = new Subject("rank", "3", "rank 3 (" + HOSTILE + ")");
        Finding f = new Finding("distributed/straggler-rank", "distributed", "1.0.0", Severity.WARNING, "load-balance",
                "Rank 3 is a straggler <img src=x onerror=alert(2)>", "Look at " + HOSTILE, Evidence.of("profile", HOSTILE),
                sub, null, "https://example.org/straggler", "job", Fingerprint.of("distributed/straggler-rank", sub),
                Impact.perStep(50e6, 150e6, 50e6, "wait"));
        ProfileResult result = new ProfileResult(ProfileFacts.builder().profile(new ProfileInfo("job", "job", null, null, 0, 0)).build(),
                List.of(f), List.of());
        return new LintRun("0.1.0", List.of(), List.of(), List.of(result), new JobResult(facts, ranks));
    }

    @Test
    void theJobViewKeepsProfileStringsAsText() throws Exception {
        String html = new HtmlReporter().renderToString(job(8, 3));
        assertTrue(html.contains("id=\"p1-v-job\""), "the Job view");
        assertEquals(2, html.split("<svg", -1).length - 1, "two heat maps");
        assertTrue(html.contains("p1-t-ranks") && html.contains("p1-t-coll") && html.contains("p1-t-inputs"));
        assertFalse(html.contains("<script>alert(1)"), "a file name is not markup");
        assertFalse(html.contains("<img src=x"), "a message is not markup");
        assertFalse(html.contains("<b>bad</b>") || html.contains("<i>here</i>") || html.contains("<em>markup</em>"));
        assertTrue(html.contains("Content-Security-Policy"));
    }

    @Test
    void aThousandRanksAreBinnedInTheHeatMaps() throws Exception {
        String html = new HtmlReporter().renderToString(job(1000, 40));
        int rects = html.split("<rect", -1).length - 1;
        assertTrue(rects <= 2 * (64 * 24 + 4), "at most 64 rows x 24 columns per map, got " + rects + " rects");
        assertTrue(html.contains("ranks 0-14"), "rows cover several ranks (1,000 over 64 rows) and say which");
        assertTrue(html.length() < 2_000_000, "the page stays small: " + html.length());
    }

    @Test
    void inChromiumThePageRunsWithoutErrorsAndListsTheSlowestRankFirst(@TempDir Path work) throws Exception {
        HeadlessChromium chromium = HeadlessChromium.require();
        Path page = work.resolve("job.html");
        Files.writeString(page, new HtmlReporter().renderToString(job(12, 4)));
        try (DevToolsPage p = chromium.open(1280, 900, work)) {
            p.navigate(page.toUri().toString());
            p.waitFor(() -> p.evalInt("document.querySelectorAll('#p1-t-ranks tbody tr').length") > 0, "the ranks table");
            assertEquals("3", p.evalString("document.querySelector('#p1-t-ranks tbody tr td').textContent.trim()"));
            assertEquals(0, p.evalInt("document.querySelectorAll('script:not([type]), [onerror]').length - 1"),
                    "one script (the report's), no injected handler");
            assertEquals(List.of(), p.problems());
        }
    }
}
