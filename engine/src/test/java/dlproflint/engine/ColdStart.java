package dlproflint.engine;

import dlproflint.facts.TimeBreakdown;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Cold-start probe for docs/engine.md: run in a fresh JVM, it loads the given pack directories
 * (optionally the built-in packs and a cache directory), lints one tiny profile and prints where
 * the time went. Not a unit test; see docs/engine.md for the command line.
 * <pre>java ... dlproflint.engine.ColdStart [--builtin] [--cache DIR] PACKDIR...</pre>
 */
public final class ColdStart {
    private ColdStart() {
    }

    public static void main(String[] args) throws Exception {
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        long t0 = System.nanoTime();
        boolean builtin = false;
        Path cache = null;
        List<Path> dirs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--builtin" -> builtin = true;
                case "--cache" -> cache = Path.of(args[++i]);
                default -> dirs.add(Path.of(args[i]));
            }
        }
        org.kie.api.KieServices.get();
        long t1 = System.nanoTime();
        LintEngine engine = LintEngine.load(new EngineOptions(builtin, dirs, RunConfig.DEFAULT, cache));
        long t2 = System.nanoTime();
        var facts = dlproflint.facts.ProfileFacts.builder()
                .profile(new dlproflint.facts.ProfileInfo("probe", "nsys-sqlite", null, null, 0, 1))
                .breakdown(new TimeBreakdown(1_000_000, 0, 3, 0, 3, 0, 0, 0, 97, 0)).build();
        int findings = engine.lint(facts).size();
        long t3 = System.nanoTime();
        Runtime rt = Runtime.getRuntime();
        System.out.printf("rules=%d packs=%d fromCache=%d kieServicesMs=%d loadMs=%d firstLintMs=%d findings=%d"
                        + " sinceJvmStartMs=%d heapUsedMB=%d%n",
                engine.rules().size(), engine.packs().size(), engine.packsFromCache(), (t1 - t0) / 1_000_000,
                (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000, findings,
                System.currentTimeMillis() - jvmStart, (rt.totalMemory() - rt.freeMemory()) >> 20);
    }
}
