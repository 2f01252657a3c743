package dlproflint.reporters.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.facts.Direction;
import dlproflint.facts.Iteration;
import dlproflint.facts.IterationKernel;
import dlproflint.facts.KernelFact;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.findings.LintRun;
import dlproflint.findings.ProfileResult;
import dlproflint.reporters.html.table.ScriptJson;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The data the views embed (no browser): what the blocks hold, how they are escaped, capped and linked. */
class HtmlViewDataTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Map<String, JsonNode> blocks(String html) throws IOException {
        Map<String, JsonNode> out = new HashMap<>();
        Matcher m = Pattern.compile("<script type=\"application/json\" id=\"([a-z0-9-]+)\">(.*?)</script>", Pattern.DOTALL)
                .matcher(html);
        while (m.find()) out.put(m.group(1), JSON.readTree(m.group(2)));
        return out;
    }

    /** The value of {@code field} in row {@code row} of a block. */
    static JsonNode value(JsonNode block, int row, String field) {
        for (int i = 0; i < block.get("f").size(); i++) {
            if (block.get("f").get(i).asText().equals(field)) return block.get("r").get(row).get(i);
        }
        throw new AssertionError("no field " + field);
    }

    @Test
    void scriptJsonCannotEndOrAlterItsScriptElement() throws IOException {
        String hostile = "</script><script>x()</script><!--<script>\u2028\u2029&amp;\"\\\u0000\ud800 \ud83d\ude00";
        String json = new ScriptJson(new StringBuilder()).raw('[').string(hostile).raw(',').number(1.5).raw(',')
                .value(true).raw(',').value(null).raw(',').value(new int[] {1, 2}).raw(']').toString();
        assertFalse(json.matches("(?s).*[<>&\u2028\u2029\u0000].*"), json);
        assertTrue(json.contains("\\u003c/script\\u003e"), json);
        JsonNode back = JSON.readTree(json);
        assertEquals(hostile, back.get(0).asText(), "the exact string comes back");
        assertEquals(1.5, back.get(1).asDouble());
        assertEquals(1, back.get(2).asInt(), "booleans as 1");
        assertTrue(back.get(3).isNull());
        assertEquals("[1,2]", back.get(4).toString());
    }

    @Test
    void blocksHoldEveryRowOnceAndLinkFindingsBothWays() throws IOException {
        String html = HtmlReporterTest.render(SampleRuns.realistic());
        Map<String, JsonNode> b = blocks(html);
        assertEquals(List.of("p1-d-findings", "p1-d-gpus", "p1-d-ik", "p1-d-itops", "p1-d-its", "p1-d-kernels",
                "p1-d-ops", "p1-d-types"), b.keySet().stream().sorted().toList());
        assertEquals(12, b.get("p1-d-ops").get("r").size());
        assertEquals(14, b.get("p1-d-kernels").get("r").size());
        assertEquals(14, b.get("p1-d-its").get("r").size());
        assertEquals(9 * 14, b.get("p1-d-ik").get("r").size(), "9 aggregated iterations x 14 kernel rows");
        assertEquals(10, b.get("p1-d-types").get("r").size());
        assertEquals(3, b.get("p1-d-gpus").get("r").size());
        assertEquals(7, b.get("p1-d-findings").get("r").size());
        // each block once in the page, each table pointing at its block
        assertEquals(1, HtmlReporterTest.count(html, "id=\"p1-d-ops\""));
        assertEquals(2, HtmlReporterTest.count(html, "data-block=\"p1-d-ik\""), "Kernels by Iteration and Kernels by Op");
        // the amp finding (op CONV2D_1, the op with the most GPU time: row 0) and back
        JsonNode findings = b.get("p1-d-findings");
        int amp = -1;
        for (int i = 0; i < findings.get("r").size(); i++) {
            if (value(findings, i, "rule").asText().equals("dlprof/amp-not-used")) amp = i;
        }
        assertEquals("CONV2D_1", value(b.get("p1-d-ops"), 0, "id").asText());
        assertEquals("[" + amp + "]", value(b.get("p1-d-ops"), 0, "findings").toString(), "the op row lists its finding");
        String anchor = value(findings, amp, "anchor").asText();
        String card = html.substring(html.indexOf("<article class=\"finding sev-warning\" id=\"" + anchor + "\""));
        card = card.substring(0, card.indexOf("</article>"));
        assertTrue(card.contains("<a class=\"drill\" href=\"#p1-v-ops\" data-go=\"hl=p1-t-ops:0\">&#187; op model/layer1/0/conv1</a>"), card);
        // the kernel finding names kernel rows on two devices; the iteration finding a range
        assertTrue(html.contains("data-go=\"hl=p1-t-its:3-11\">&#187; iterations 3\u201311</a>"));
        assertTrue(html.contains("&#187; 2 kernel rows</a>"));
        // the impact leads the card and orders the findings
        assertTrue(card.indexOf("class=\"impact\"") < card.indexOf("class=\"problem\""));
        assertTrue(card.contains("<strong>\u2248 5.0 ms/step, 1.7% of the step</strong>"), card);
    }

    @Test
    void hostileNamesRoundTripThroughTheDataExactlyAsCleaned() throws IOException {
        Map<String, JsonNode> b = blocks(HtmlReporterTest.render(SampleRuns.hostile()));
        JsonNode ops = b.get("p1-d-ops");
        List<String> names = new java.util.ArrayList<>();
        for (int i = 0; i < ops.get("r").size(); i++) names.add(value(ops, i, "name").asText());
        for (String h : SampleRuns.HOSTILE) assertTrue(names.contains(Text.clean(h)), "op name " + h);
        JsonNode kernels = b.get("p1-d-kernels");
        List<String> kernelNames = new java.util.ArrayList<>();
        for (int i = 0; i < kernels.get("r").size(); i++) kernelNames.add(value(kernels, i, "name").asText());
        for (String h : SampleRuns.HOSTILE) assertTrue(kernelNames.contains(Text.clean(h)), "kernel name " + h);
    }

    /** More ops and per-iteration kernel rows than the caps: the page says how many exist and what it embeds. */
    @Test
    void capsAreStatedNeverSilent() throws IOException {
        ProfileFacts.Builder f = ProfileFacts.builder().profile(new ProfileInfo("big.sqlite", "nsys-sqlite", null, null, 0,
                1_000_000_000_000L));
        for (int i = 0; i < 10_500; i++) {
            f.op(new OpFact("OP_" + i, "op" + i, "conv2d", Direction.FPROP, 1, SampleRuns.stat(1, 10),
                    SampleRuns.stat(1, 1_000 + i), SampleRuns.stat(1, 1), SampleRuns.stat(1, 1), true, false, 0, 1, null,
                    null, List.of()));
        }
        for (int k = 0; k < 150; k++) {
            f.kernel(new KernelFact("k" + k, "k" + k, "OP_" + k, 0, SampleRuns.stat(1000, 100), SampleRuns.stat(1000, 5),
                    false, "1,1,1", "1,1,1"));
        }
        for (int it = 0; it < 1000; it++) {
            f.iteration(new Iteration(it, it * 1_000_000L, (it + 1) * 1_000_000L, true, 150, 15_000, 0, 0));
            for (int k = 0; k < 150; k++) {
                f.iterationKernel(new IterationKernel(it, "OP_" + k, "k" + k, 0, false, 1, 100, it * 1_000_000L + k));
            }
        }
        String html = HtmlReporterTest.render(new LintRun("t", List.of(), List.of(),
                List.of(new ProfileResult(f.build(), List.of(), List.of()))));
        Map<String, JsonNode> b = blocks(html);
        assertEquals(10_000, b.get("p1-d-ops").get("r").size());
        assertTrue(html.contains("10,500 rows exist. Only the 10,000 ops with the most GPU time of 10,500 are embedded;"), "ops cap");
        assertEquals(500 * 150, b.get("p1-d-ik").get("r").size(), "every 2nd iteration's rows");
        assertTrue(html.contains("the rows of every 2nd of them are embedded: 500 iterations, 75,000 rows."), "ik cap");
        JsonNode ik = b.get("p1-d-ik");
        for (int r = 0; r < ik.get("r").size(); r += 997) assertEquals(0, value(ik, r, "it").asInt() % 2);
        assertTrue(html.getBytes(java.nio.charset.StandardCharsets.UTF_8).length < 5_000_000, "under the 5 MB budget");
        assertNotNull(b.get("p1-d-itops"));
    }
}
