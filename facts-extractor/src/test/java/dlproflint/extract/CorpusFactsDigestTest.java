package dlproflint.extract;

import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every fact the readers produce for every corpus profile, down to the last field (each op, kernel, stat,
 * iteration, GPU busy bin and gap), against a committed digest per profile: an optimisation of a reader must
 * leave them all as they were. The corpus snapshots ({@code rule-tests}) show counts and findings for review;
 * this catches any other difference. A change meant to alter facts rewrites the digests with
 * {@code -Dsnapshots.update=true}, like the snapshots; on a mismatch the facts are written under
 * {@code target/corpus-facts/} to compare with those of the previous commit.
 */
class CorpusFactsDigestTest {
    private static final Path DIGESTS = Path.of("src/test/resources/corpus-facts.sha256");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyCorpusProfileReadsToTheSameFacts() throws Exception {
        Path root = Corpus.root();
        if (!Files.isDirectory(root)) {
            Corpus.file(".");
            return;
        }
        List<String> lines = new ArrayList<>();
        ProfileReaders readers = ProfileReaders.discover();
        Path dump = Path.of("target/corpus-facts");
        boolean update = Boolean.getBoolean("snapshots.update");
        // the digests are the corpus registry: an update registers every profile there is; otherwise the registered
        // ones are compared and a new profile is NewCorpusProfilesTest's one failure, not this test's
        List<String> profiles = update ? Corpus.present() : Corpus.profiles();
        for (String rel : profiles) {
            Path p = root.resolve(rel);
            String text;
            try {
                ProfileFacts f = readers.read(p, ReadOptions.DEFAULT);
                // the absolute path differs from checkout to checkout
                text = JSON.writeValueAsString(f).replace(JSON.writeValueAsString(p.toString()), "\"" + rel + "\"");
            } catch (ProfileException e) {
                text = "unreadable: " + e.getMessage().replace(p.toString(), rel);
            }
            Files.createDirectories(dump);
            Files.writeString(dump.resolve(rel.replace('/', '~') + ".json"), text, StandardCharsets.UTF_8);
            lines.add(sha256(text) + "  " + rel);
        }
        String actual = String.join("\n", lines) + "\n";
        if (update) {
            Files.writeString(DIGESTS, actual, StandardCharsets.UTF_8);
            return;
        }
        // a registered profile the corpus no longer holds is NewCorpusProfilesTest's failure
        List<String> expected = Files.readAllLines(DIGESTS, StandardCharsets.UTF_8).stream()
                .filter(l -> profiles.contains(l.substring(l.indexOf("  ") + 2))).toList();
        assertEquals(String.join("\n", expected) + "\n", actual,
                "facts of a corpus profile changed (facts written under target/corpus-facts/); if intended, rewrite "
                        + DIGESTS + " with -Dsnapshots.update=true and account for the change");
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}
