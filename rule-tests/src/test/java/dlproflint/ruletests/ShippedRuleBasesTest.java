package dlproflint.ruletests;

import dlproflint.engine.EngineVersion;
import dlproflint.engine.LintEngine;
import dlproflint.engine.compile.KjarCache;
import dlproflint.engine.compile.PackCompiler;
import dlproflint.engine.pack.PackLoader;
import dlproflint.engine.pack.RulePack;
import org.junit.jupiter.api.Test;
import org.kie.api.KieBase;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The built-in packs' rule bases are built once per process, by whichever thread asks first (the command's prefetch,
 * or the engine it loads), and every engine of the process shares them.
 */
class ShippedRuleBasesTest {
    private static PackCompiler compiler() {
        return new PackCompiler(KjarCache.at(null), EngineVersion.cacheSalt(), PackCompiler.class.getClassLoader());
    }

    @Test
    void everyCompilerOfTheProcessGetsTheSameRuleBaseEvenWhenTheyAskAtOnce() throws Exception {
        LintEngine.prefetchBuiltin(true);
        List<RulePack> packs = PackLoader.builtin(PackCompiler.class.getClassLoader());
        assertTrue(packs.size() >= 6, "the built-in packs: " + packs.size());
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (RulePack p : packs) {
                List<Callable<KieBase>> asks = new ArrayList<>();
                for (int i = 0; i < 3; i++) asks.add(() -> compiler().compile(p).kieBase());
                List<Future<KieBase>> got = pool.invokeAll(asks);
                for (Future<KieBase> f : got) assertSame(got.get(0).get(), f.get(), p.id() + ": one rule base for the process");
                assertTrue(compiler().warm(p), p.id() + " is shipped precompiled");
                assertTrue(compiler().compile(p).fromCache(), p.id() + " came from its shipped kjar");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void packsOfAnotherClassLoaderAndPacksNotShippedAreNotShared() throws Exception {
        RulePack shipped = PackLoader.builtin(PackCompiler.class.getClassLoader()).get(0);
        // the same pack seen through another class loader is built for that loader
        try (java.net.URLClassLoader other = new java.net.URLClassLoader(new java.net.URL[0], PackCompiler.class.getClassLoader())) {
            PackCompiler theirs = new PackCompiler(KjarCache.at(null), EngineVersion.cacheSalt(), other);
            assertNotSame(compiler().compile(shipped).kieBase(), theirs.compile(shipped).kieBase());
        }
        // a pack whose content differs from what was shipped has no shipped kjar: warm builds nothing
        RulePack edited = new RulePack(shipped.manifest(), shipped.source(), shipped.files().stream()
                .map(f -> f.path().endsWith(".drl") ? new dlproflint.engine.pack.PackFile(f.path(), f.origin(),
                        (f.text() + "\n// edited\n").getBytes(java.nio.charset.StandardCharsets.UTF_8)) : f)
                .toList());
        assertFalse(compiler().warm(edited));
        assertEquals(shipped.id(), edited.id());
    }
}
