package dlproflint.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pins, disabled packs, duplicate pack ids and minEngine are settled before anything is compiled. */
class PackSelectionTest {
    @TempDir
    Path tmp;

    private static RunConfig packs(Map<String, String> pins, Set<String> disabled) {
        return RunConfig.DEFAULT.withPackVersions(pins).withDisabledPacks(disabled);
    }

    @Test
    void aDisabledPackIsNotLoadedAtAll() throws Exception {
        // the "syntax-error" pack would fail to compile: disabling it must skip compilation entirely
        LintEngine e = LintEngine.load(new EngineOptions(false, List.of(TestPacks.dir("syntax-error")),
                packs(Map.of(), Set.of("broken")), null));
        assertEquals(List.of(), e.packs());
        assertEquals(List.of(), e.rules());
    }

    @Test
    void aPinThatDoesNotMatchTheManifestIsAnError() {
        RuleLoadException e = assertThrows(RuleLoadException.class, () -> LintEngine.load(new EngineOptions(false,
                List.of(TestPacks.dir("syntax-error")), packs(Map.of("broken", "0.2.0"), Set.of()), null)));
        assertEquals(TestPacks.dir("syntax-error").resolve("pack.yaml") + ":2: pack 'broken' is version 0.1.0 but the configuration pins 0.2.0",
                e.getMessage());
        RuleLoadException absent = assertThrows(RuleLoadException.class, () -> LintEngine.load(new EngineOptions(false,
                List.of(TestPacks.dir("syntax-error")), packs(Map.of("acme", "1.0.0"), Set.of("broken")), null)));
        assertTrue(absent.getMessage().startsWith("configuration: pinned pack 'acme' is not loaded"), absent.getMessage());
    }

    @Test
    void twoPacksWithOneIdAreAnError() {
        RuleLoadException e = assertThrows(RuleLoadException.class, () -> LintEngine.load(new EngineOptions(false,
                List.of(TestPacks.dir("valid"), TestPacks.dir("valid")), RunConfig.DEFAULT, null)));
        assertTrue(e.getMessage().contains("duplicate pack id 'demo', already loaded from"), e.getMessage());
        assertEquals(1, e.line());
    }

    @Test
    void aPackNeedingANewerEngineIsRejected() throws Exception {
        Files.writeString(tmp.resolve("pack.yaml"), "id: future\nversion: 1.0.0\ndescription: d\nminEngine: 99.0.0\n");
        RuleLoadException e = assertThrows(RuleLoadException.class, () -> LintEngine.load(new EngineOptions(false,
                List.of(tmp), RunConfig.DEFAULT, null)));
        assertEquals(tmp.resolve("pack.yaml") + ":4: pack 'future' needs engine 99.0.0 or newer; this is "
                + EngineVersion.engine(), e.getMessage());
        assertTrue(EngineVersion.engine().matches("\\d+\\.\\d+\\.\\d+.*"), "version filtered in from the pom: " + EngineVersion.engine());
    }
}
