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
        assertEquals(0, third.packsFromCache(), "a corrupt entry is evicted and the pack recompiled");
        assertEquals(first.lint(facts), third.lint(facts));
        assertTrue(Files.size(jars().get(0)) > 1000, "entry rewritten");
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
