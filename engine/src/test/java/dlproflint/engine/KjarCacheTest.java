package dlproflint.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A compiled pack is stored under its content hash and reloaded from there; a broken entry is rebuilt. */
class KjarCacheTest {
    @TempDir
    Path cache;

    private List<Path> jars() throws IOException {
        try (Stream<Path> s = Files.list(cache.resolve("kjars"))) {
            return s.filter(p -> p.toString().endsWith(".jar")).toList();
        }
    }

    @Test
    void compileOnceThenLoadFromCacheAndRecoverFromCorruption() throws Exception {
        EngineOptions opts = TestPacks.only("valid").withCacheDir(cache);
        LintEngine first = LintEngine.load(opts);
        assertEquals(0, first.packsFromCache());
        List<Path> jars = jars();
        assertEquals(1, jars.size());
        assertTrue(jars.get(0).getFileName().toString().matches("[0-9a-f]{64}\\.jar"), jars.toString());

        LintEngine second = LintEngine.load(opts);
        assertEquals(1, second.packsFromCache());
        assertEquals(first.rules(), second.rules(), "metadata read from the cached KieBase is identical");
        var facts = TestPacks.profile().breakdown(new dlproflint.facts.TimeBreakdown(1, 0, 5, 0, 5, 0, 0, 0, 95, 0)).build();
        assertEquals(first.lint(facts), second.lint(facts));

        Files.write(jars.get(0), new byte[] {1, 2, 3});
        LintEngine third = LintEngine.load(opts);
        assertEquals(1, third.packsFromCache(), "the catalogue is read from the cache; the kjar is not needed yet");
        assertEquals(first.lint(facts), third.lint(facts));
        assertEquals(0, third.packsFromCache(), "the corrupt kjar is evicted and the pack recompiled when first needed");
        assertTrue(Files.size(jars().get(0)) > 1000, "entry rewritten");
    }

    @Test
    void theCatalogueIsStoredBesideTheKjarAndACorruptOneIsRebuiltFromTheKieBase() throws Exception {
        EngineOptions opts = TestPacks.only("valid").withCacheDir(cache);
        LintEngine first = LintEngine.load(opts);
        Path catalogue = Path.of(jars().get(0).toString().replace(".jar", ".catalog"));
        assertTrue(Files.isRegularFile(catalogue), "catalogue written beside the kjar");

        Files.write(catalogue, new byte[] {'D', 'L', 'R', 'C', 0, 0, 0, 9});
        LintEngine second = LintEngine.load(opts);
        assertEquals(first.rules(), second.rules(), "an unreadable catalogue is ignored: metadata read from the KieBase");
        assertEquals(1, second.packsFromCache(), "the KieBase came from the cached kjar, not from a compile");
        assertTrue(Files.size(catalogue) > 8, "catalogue rewritten");
    }

    @Test
    void unwritableCacheIsSkippedNotFatal() throws Exception {
        Path file = cache.resolve("not-a-dir");
        Files.writeString(file, "x");
        var c = dlproflint.engine.compile.KjarCache.at(file);
        assertTrue(c.put("abc", new byte[] {1}).isEmpty(), "cannot create kjars/ under a file");
        assertTrue(c.find("abc").isEmpty());
    }
}
