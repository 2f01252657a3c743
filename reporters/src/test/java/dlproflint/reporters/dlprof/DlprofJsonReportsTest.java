package dlproflint.reporters.dlprof;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JSON form mirrors the CSV sections: same titles, row names and headers, typed values. */
class DlprofJsonReportsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(DlprofReport report) throws Exception {
        return JSON.readTree(Fixtures.render(report, DlprofFormat.JSON));
    }

    @Test
    void summarySectionsAreObjectsKeyedLikeTheCsvRows() throws Exception {
        JsonNode s = json(new SummaryReport(Fixtures.facts()));
        assertEquals(List.of("System Config", "Summary Report", "Iterations", "All Ops", "All Kernels"), names(s));
        assertEquals(2, s.get("System Config").get("GPU Count").asInt());
        assertEquals("NVIDIA A100-SXM4-40GB, NVIDIA A100-SXM4-40GB", s.get("System Config").get("GPU Name(s)").asText());
        assertEquals(35.4, s.get("Summary Report").get("Tensor Core Kernel Utilization %").doubleValue());
        assertEquals(46915098532L, s.get("Summary Report").get("Wall Clock Time (ns)").longValue());
        assertEquals(233408450.4, s.get("Iterations").get("Average Iteration Time (ns)").doubleValue());
        JsonNode allOps = s.get("All Ops");
        assertEquals(List.of("All ops", "Ops using TC", "Ops eligible for TC but not using", "All other ops"), names(allOps));
        assertEquals(322947, allOps.get("All ops").get("GPU Time (ns)").asLong());
        assertEquals(6, allOps.get("All ops").get("# Ops").asInt());
        assertEquals(3, s.get("All Kernels").get("Memory").get("# Kernels").asInt());
    }

    @Test
    void tablesAreArraysOfRowObjectsWithTypedValues() throws Exception {
        String text = Fixtures.render(new DetailedReport(Fixtures.facts()), DlprofFormat.JSON);
        // averages keep DLProf's one decimal, never scientific notation
        assertTrue(text.contains("\"Avg. CPU Time (ns)\":2306368.0"), text);
        JsonNode rows = JSON.readTree(text).get("All Iterations");
        assertEquals(6, rows.size());
        JsonNode conv = rows.get(0);
        assertEquals("CONV2D_1", conv.get("Op ID").asText());
        assertTrue(conv.get("TC Eligible").isBoolean() && conv.get("TC Eligible").booleanValue());
        assertEquals("dummy_network.py:42\n/x/torch/nn/modules/module.py:1102", conv.get("Stack Trace").asText());
        JsonNode unassociated = rows.get(1);
        assertTrue(unassociated.get("Direction").isNull(), "no direction, as the CSV's empty cell");
        assertTrue(unassociated.get("Data Type").isNull());
        assertEquals("", unassociated.get("Stack Trace").asText(), "quoted empty text stays a string");
        assertEquals("/module/say \"hi\", there/x", rows.get(5).get("Op Name").asText());
        assertEquals(3.3, rows.get(5).get("Avg. CPU Time (ns)").doubleValue());
        assertEquals(25, conv.size(), "one member per CSV column");
    }

    @Test
    void everyReportHasItsCsvSectionTitle() throws Exception {
        var facts = Fixtures.oneIteration();
        assertEquals(List.of("Kernel Report"), names(json(new KernelReport(facts))));
        assertEquals(List.of("Tensor Core Report"), names(json(new TensorCoreReport(facts))));
        assertEquals(List.of("Op Type Summary Report"), names(json(new OpTypeReport(facts))));
        JsonNode groups = json(new GroupOpReport(facts)).get("Group Op Report");
        assertEquals("_CompleteModel_", groups.get(groups.size() - 1).get("Name").asText());
        assertEquals(9, groups.get(groups.size() - 1).get("Num Calls Aggregated").asInt());
        JsonNode tc = json(new TensorCoreReport(facts)).get("Tensor Core Report").get(1);
        assertEquals(64.7, tc.get("TC Utilization (%)").doubleValue());
        assertEquals("volta_h884gemm_64x64_nt", tc.get("TC Kernel Names").asText());
    }

    /** Every CSV cell of every report has its JSON twin with the same value. */
    @Test
    void jsonHoldsExactlyTheCsvCells() throws Exception {
        var facts = Fixtures.facts();
        List<DlprofReport> reports = List.of(new SummaryReport(facts), new DetailedReport(facts), new KernelReport(facts),
                new TensorCoreReport(facts), new OpTypeReport(facts), new GroupOpReport(facts),
                new IterationReport(GeneratedInstances.of(List.of(GeneratedInstances.conv(0))), Layout.PYTORCH));
        int cells = 0;
        for (DlprofReport report : reports) {
            JsonNode json = json(report);
            List<DlprofCsv.Section> sections = DlprofCsv.parse(Fixtures.csv(report));
            assertEquals(sections.stream().map(DlprofCsv.Section::title).toList(), names(json));
            for (DlprofCsv.Section s : sections) {
                JsonNode node = json.get(s.title());
                if (List.of("System Config", "Summary Report", "Iterations").contains(s.title())) {
                    for (var e : s.keyValues().entrySet()) {
                        assertEquals(e.getValue(), cell(node.get(e.getKey())), s.title() + " " + e.getKey());
                        cells++;
                    }
                    continue;
                }
                List<String> header = s.header();
                List<List<String>> body = s.body();
                assertEquals(body.size(), node.size(), s.title());
                int r = 0;
                for (Iterator<Map.Entry<String, JsonNode>> it = node.isObject() ? node.fields() : null; it != null && it.hasNext(); r++) {
                    Map.Entry<String, JsonNode> e = it.next();
                    assertEquals(body.get(r).get(0), e.getKey());
                    for (int c = 1; c < header.size(); c++, cells++) {
                        assertEquals(body.get(r).get(c), cell(e.getValue().get(header.get(c))), s.title() + " " + header.get(c));
                    }
                }
                if (node.isArray()) {
                    for (; r < body.size(); r++) {
                        for (int c = 0; c < header.size(); c++, cells++) {
                            assertEquals(body.get(r).get(c), cell(node.get(r).get(header.get(c))), s.title() + " " + header.get(c));
                        }
                    }
                }
            }
        }
        assertTrue(cells > 400, "compared " + cells + " cells");
    }

    /** A JSON value as the CSV prints it. */
    private static String cell(JsonNode v) {
        if (v == null) return "<missing>";
        if (v.isNull()) return "";
        if (v.isBoolean()) return v.booleanValue() ? "yes" : "no";
        if (v.isIntegralNumber()) return v.asText();
        if (v.isNumber()) return v.decimalValue().setScale(1, java.math.RoundingMode.UNNECESSARY).toPlainString();
        return v.asText();
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) names.add(it.next());
        return names;
    }
}
