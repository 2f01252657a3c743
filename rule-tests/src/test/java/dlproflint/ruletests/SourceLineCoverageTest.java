package dlproflint.ruletests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/sarif.md's table of findings with a source line, per corpus profile that holds call stacks, recounted from
 * the corpus snapshots ({@link CorpusSnapshotTest} keeps those true to the readers and rules): a change that loses
 * (or gains) source lines must update the documented figures.
 */
class SourceLineCoverageTest {
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| [^|]+ \\| [^|]+ \\| (\\d+) \\| \\d+ \\| (\\d+) \\|$");

    @Test
    void theDocumentedShareMatchesTheSnapshots() throws IOException {
        Map<String, String> documented = new TreeMap<>();
        for (String line : Files.readAllLines(AllPacks.repo().resolve("docs/sarif.md"))) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) documented.put(m.group(1), m.group(2) + " findings, " + m.group(3) + " with a source line");
        }
        Map<String, String> measured = new TreeMap<>();
        ObjectMapper json = new ObjectMapper();
        try (Stream<Path> files = Files.list(AllPacks.repo().resolve("rule-tests/src/test/resources/corpus-snapshots"))) {
            for (Path f : files.sorted().toList()) {
                JsonNode s = json.readTree(f.toFile());
                if (s.path("read").path("callStacks").isMissingNode()) continue;
                int located = 0;
                for (JsonNode finding : s.path("findings")) if (finding.has("location")) located++;
                measured.put(s.path("profile").asText(), s.path("findings").size() + " findings, " + located + " with a source line");
            }
        }
        assertTrue(measured.size() >= 13, "the corpus profiles with stacks: " + measured.keySet());
        assertEquals(measured, documented, "docs/sarif.md, 'Share of findings with a source line'");
    }
}
