package dlproflint.bench;

import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.KernelFact;
import dlproflint.facts.ProfileFacts;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Kineto scale benchmark of docs/benchmarks.md: extracts a (large) trace made by {@link dlproflint.synth.KinetoTraceScaler}
 * and prints wall time, peak heap and counts. Run it with {@code -Xmx512m}; not a unit test.
 *
 * <pre>
 * java -Xmx512m -cp cli/target/dlprof-lint.jar dlproflint.synth.KinetoBenchmark bench-out/kineto-100mb.json
 * </pre>
 */
public final class KinetoBenchmark {
    private KinetoBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        long t0 = System.nanoTime();
        ProfileFacts facts = ProfileReaders.discover().read(file, ReadOptions.DEFAULT);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) peak += pool.getPeakUsage().getUsed();
        }
        long kernels = facts.kernels().stream().mapToLong(KernelFact::calls).sum();
        System.out.printf(Locale.ROOT, "%s: %.1f MB, extracted in %d ms, peak heap %d MB (max %d MB); "
                        + "%d kernel launches, %d iterations, %d ops, %d kernel facts%n",
                file, Files.size(file) / 1048576.0, ms, peak >> 20, Runtime.getRuntime().maxMemory() >> 20, kernels,
                facts.iterations().size(), facts.ops().size(), facts.kernels().size());
    }
}
