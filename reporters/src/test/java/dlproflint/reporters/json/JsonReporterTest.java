package dlproflint.reporters.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import dlproflint.findings.LintRun;
import dlproflint.reporters.Schemas;
import dlproflint.reporters.TestRuns;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonReporterTest {
    private static JsonSchema schema;

    @BeforeAll
    static void loadSchema() {
        schema = Schemas.load(JsonReporter.SCHEMA_RESOURCE);
    }

    private static byte[] bytes(LintRun run) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new JsonReporter().render(run, out);
        return out.toByteArray();
    }

    private static JsonNode render(LintRun run) throws IOException {
        return Schemas.JSON.readTree(bytes(run));
    }

    @Test
    void outputValidatesAgainstTheShippedSchema() throws IOException {
        JsonNode doc = render(TestRuns.single("/data/run1/nsys_profile.sqlite"));
        assertEquals(Set.of(), Schemas.errors(schema, doc));
        assertEquals(JsonReport.SCHEMA_VERSION, doc.path("schemaVersion").asText());
    }

    @Test
    void schemaRejectsDrift() throws IOException {
        // The schema is strict enough to catch a renamed key or a wrong type.
        ObjectNode doc = (ObjectNode) render(TestRuns.single("/data/p.sqlite"));
        ObjectNode finding = (ObjectNode) doc.path("profiles").get(0).path("findings").get(0);
        finding.put("severity", "fatal");
        finding.remove("fingerprint");
        ((ObjectNode) doc.path("profiles").get(0)).put("surprise", 1);
        Set<String> errors = Schemas.errors(schema, doc);
        assertTrue(errors.size() >= 3, errors.toString());
    }

    @Test
    void carriesToolPacksSystemMetricsAndFindings() throws IOException {
        JsonNode doc = render(TestRuns.single("/data/run1/nsys_profile.sqlite"));
        assertEquals("dlprof-lint", doc.path("tool").path("name").asText());
        assertEquals("0.1.0", doc.path("tool").path("version").asText());
        assertEquals("1.0.0", doc.path("packs").get(0).path("version").asText());
        assertEquals(3, doc.path("rules").size());
        JsonNode summary = doc.path("summary");
        assertEquals(List.of(1, 3, 1, 1, 1, 1), List.of(summary.path("profiles").asInt(), summary.path("findings").asInt(),
                summary.path("error").asInt(), summary.path("warning").asInt(), summary.path("note").asInt(),
                summary.path("suppressed").asInt()));

        JsonNode p = doc.path("profiles").get(0);
        assertEquals("nsys_profile", p.path("name").asText());
        assertEquals("/data/run1/nsys_profile.sqlite", p.path("path").asText());
        assertEquals("11.6", p.path("system").path("cudaVersion").asText());
        assertEquals("pytorch", p.path("system").path("framework").asText());
        assertEquals(2, p.path("gpus").size());
        assertEquals("8.0", p.path("gpus").get(0).path("computeCapability").asText());
        assertTrue(p.path("gpus").get(0).path("used").asBoolean());
        assertEquals(42.5, p.path("gpus").get(0).path("utilizationPct").asDouble());
        assertTrue(p.path("gpus").get(1).path("utilizationPct").isNull(), "no usage recorded for GPU 1");
        assertTrue(p.path("gpus").get(0).path("usedMemoryBytes").isNull(), "-1 (unknown) becomes null");
        JsonNode m = p.path("metrics");
        assertEquals(12_000_000_000L, m.path("wallNs").asLong());
        assertEquals(42.5, m.path("gpuUtilizationPct").asDouble());
        assertEquals(12.5, m.path("tcUtilizationPct").asDouble());
        assertEquals(40.0, m.path("breakdown").path("cpuPct").asDouble());
        assertEquals(10, m.path("iterations").path("aggregated").asInt());
        assertEquals("nsys.unclosed-range", p.path("warnings").get(0).path("code").asText());

        JsonNode amp = p.path("findings").get(1);
        assertEquals("dlprof/amp-not-used", amp.path("ruleId").asText());
        assertEquals("dlprof", amp.path("pack").path("id").asText());
        assertEquals("warning", amp.path("severity").asText());
        assertEquals("precision", amp.path("category").asText());
        assertEquals("op:CONV2D_1", amp.path("subject").path("ref").asText());
        assertEquals("models/resnet.py", amp.path("location").path("file").asText());
        assertEquals(42, amp.path("location").path("line").asInt());
        assertEquals(32, amp.path("fingerprint").asText().length());
        List<String> keys = new ArrayList<>();
        for (Iterator<String> it = amp.path("evidence").fieldNames(); it.hasNext(); ) keys.add(it.next());
        assertEquals(List.of("eligibleOps", "nanRatio", "formula", "negative"), keys, "the rule's evidence order");
        assertEquals("NaN", amp.path("evidence").path("nanRatio").asText(), "JSON has no NaN literal");
        assertTrue(p.path("findings").get(0).path("location").isNull());
    }

    @Test
    void findingsAreSortedBySeverityThenRule() throws IOException {
        JsonNode findings = render(TestRuns.single("/p.sqlite")).path("profiles").get(0).path("findings");
        List<String> order = new ArrayList<>();
        findings.forEach(f -> order.add(f.path("severity").asText() + " " + f.path("ruleId").asText()));
        assertEquals(List.of("error dlprof/gpu-underutilized", "warning dlprof/amp-not-used", "note dlprof/slow-kernel"), order);
    }

    @Test
    void hostileStringsRoundTripExactly() throws IOException {
        byte[] raw = bytes(TestRuns.single("/p.sqlite"));
        String text = new String(raw, java.nio.charset.StandardCharsets.UTF_8);
        assertFalse(text.contains("\u001b"), "control characters are escaped, not written raw");
        assertFalse(text.contains("\u0000"));
        JsonNode slow = Schemas.JSON.readTree(raw).path("profiles").get(0).path("findings").get(2);
        assertEquals(TestRuns.HOSTILE_KERNEL, slow.path("evidence").path("kernel").asText());
        assertEquals(TestRuns.HOSTILE_KERNEL, slow.path("subject").path("name").asText());
        assertEquals("Kernel " + TestRuns.HOSTILE_KERNEL + " takes 61.2% of GPU time.", slow.path("problem").asText());
    }

    @Test
    void outputIsDeterministic() throws IOException {
        assertArrayEquals(bytes(TestRuns.single("/p.sqlite")), bytes(TestRuns.single("/p.sqlite")));
    }
}
