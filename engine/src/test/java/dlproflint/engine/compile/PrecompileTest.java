package dlproflint.engine.compile;

import dlproflint.engine.EngineVersion;
import dlproflint.engine.pack.PackLoader;
import dlproflint.engine.pack.RulePack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A kjar written at build time is found on the class path and loaded instead of compiling. */
class PrecompileTest {
    @TempDir
    Path classes;

    /** The test pack of four rules that compiles. */
    static RulePack validPack() throws Exception {
        return PackLoader.directory(Path.of(PrecompileTest.class.getResource("/testpacks/valid/pack.yaml").toURI()).getParent()).get(0);
    }

    @Test
    void precompiledKjarIsUsedFromTheClassPath() throws Exception {
        RulePack pack = validPack();
        Path stale = classes.resolve("dlproflint/kjars/0000.jar");
        Files.createDirectories(stale.getParent());
        Files.write(stale, new byte[] {1});

        List<Path> written = Precompile.run(List.of(pack), classes, getClass().getClassLoader());
        assertEquals(1, written.size());
        assertFalse(Files.exists(stale), "kjars of earlier builds are removed");
        assertTrue(written.get(0).getFileName().toString().matches("[0-9a-f]{64}\\.jar"));
        assertTrue(Files.isRegularFile(Path.of(written.get(0).toString().replace(".jar", PackCompiler.CATALOG))),
                "the rule catalogue is written beside the kjar");

        try (URLClassLoader cl = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            CompiledPack c = new PackCompiler(KjarCache.at(null), EngineVersion.cacheSalt(), cl).compile(pack);
            assertTrue(c.fromCache(), "loaded from dlproflint/kjars/ on the class path, not compiled");
            assertEquals(4, c.kieBase().getKiePackages().stream().mapToInt(p -> p.getRules().size()).sum());
            var catalogue = new PackCompiler(KjarCache.at(null), EngineVersion.cacheSalt(), cl).catalog(pack);
            assertTrue(catalogue.isPresent(), "the catalogue is found on the class path too");
            assertEquals(dlproflint.engine.catalog.RuleCatalog.read(pack, c.kieBase()),
                    dlproflint.engine.catalog.RuleCatalog.read(pack, catalogue.get()), "same catalogue without Drools");
        }
    }
}
