package dlproflint.reporters.html;

import dlproflint.findings.Units;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real profiles from the shared corpus, read by the real readers, rendered together in one report. */
class HtmlReportCorpusTest {

    @Test
    void rendersRealNsysAndKinetoProfilesSideBySide() throws Exception {
        ProfileReaders readers = ProfileReaders.discover();
        List<ProfileFacts> facts = new ArrayList<>();
        for (String rel : List.of("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite",
                "kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz")) {
            facts.add(readers.read(Corpus.file(rel), ReadOptions.DEFAULT));
        }
        List<ProfileResult> results = facts.stream().map(f -> new ProfileResult(f, List.of(), List.of())).toList();
        String html = HtmlReporterTest.render(new LintRun("test", List.of(), List.of(), results));

        assertTrue(html.getBytes(StandardCharsets.UTF_8).length < 1_000_000, "report size");
        for (int i = 0; i < facts.size(); i++) {
            ProfileFacts f = facts.get(i);
            String section = html.substring(html.indexOf("<section class=\"profile\" id=\"p" + (i + 1) + "\""));
            section = section.substring(0, section.indexOf("</section>\n<section class=\"profile\"") > 0
                    ? section.indexOf("</section>\n<section class=\"profile\"") : section.length());
            // the dashboard shows the facts' own numbers
            assertTrue(section.contains("<span class=\"card-value\">" + Units.duration(f.breakdown().wallNs()) + "</span>"),
                    "wall clock of profile " + (i + 1));
            for (GpuUsage u : f.gpuUsage()) {
                if (u.used()) assertTrue(section.contains(Units.count(u.kernelCount())), "kernel count of GPU " + u.deviceId());
            }
            OpFact top = f.ops().stream().max(Comparator.comparingLong(o -> o.gpuTime().total())).orElseThrow();
            assertTrue(section.contains(Units.duration(top.gpuTime().total())), "top op's GPU time");
            assertTrue(section.contains("<p class=\"clean\">"), "no findings in this run");
        }
        assertEquals(2, HtmlReporterTest.count(html, "<section class=\"profile\""));
    }
}
