package dlproflint.ruletests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The H200 folder's near-full-memory case as it would read recorded without {@code profile_memory=True} (its
 * {@code [memory]} events left out): the memory rules cannot judge it, and the report says so instead of staying silent.
 */
class MemoryCaptureTest {
    private static final String CASE = "pytorch-h200-2026/gpt_memory_full.pt.trace.json.gz";

    @TempDir
    static Path dir;

    @Test
    void withoutMemoryEventsTheMemoryRulesSayTheyCouldNotJudge() throws Exception {
        ProfileFacts full = AllPacks.readers().read(Corpus.file(CASE), ReadOptions.DEFAULT);
        assertTrue(rule(full, "pytorch/memory-near-capacity"), "the recorded case is near capacity");
        assertFalse(full.warnings().stream().anyMatch(w -> w.code().equals("no-memory-events")), full.warnings().toString());

        JsonNode root = PrecisionVariantsTest.read(CASE);
        ArrayNode kept = ((ObjectNode) root).arrayNode();
        for (JsonNode e : root.get("traceEvents")) if (!e.path("name").asText().equals("[memory]")) kept.add(e);
        ((ObjectNode) root).set("traceEvents", kept);
        ((ObjectNode) root).remove("profile_memory");
        ProfileFacts blind = AllPacks.readers().read(PrecisionVariantsTest.write(root, dir, "no-memory"), ReadOptions.DEFAULT);
        assertFalse(rule(blind, "pytorch/memory-near-capacity"), "nothing is known about the peak");
        assertTrue(blind.warnings().stream().anyMatch(w -> w.code().equals("no-memory-events")
                && w.message().contains("profile_memory=True") && w.message().contains("memory-near-capacity")),
                blind.warnings().toString());
    }

    private static boolean rule(ProfileFacts f, String id) throws Exception {
        return AllPacks.builtin().lint(f).stream().anyMatch(x -> x.ruleId().equals(id));
    }
}
