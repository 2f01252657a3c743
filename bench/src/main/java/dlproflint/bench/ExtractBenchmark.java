package dlproflint.bench;

import dlproflint.synth.Workload;
import dlproflint.synth.WorkloadSpec;

import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReader;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.KernelFact;
import dlproflint.facts.ProfileFacts;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The extraction benchmark of docs/benchmarks.md: generates (or reuses) a synthetic profile with 1,000,000
 * kernel launches, their {@code cudaLaunchKernel} calls and NVTX ranges, extracts it with the discovered
 * readers and prints wall time, peak heap and counts, then the time {@code sqlite3} needs to merely read the
 * same tables. Not a unit test: run it by hand with {@code -Xmx512m}.
 *
 * <pre>
 * java -Xmx512m -cp cli/target/dlprof-lint.jar dlproflint.synth.ExtractBenchmark [--regenerate] [--instances] [--key-node NAME] [FILE]
 * </pre>
 */
public final class ExtractBenchmark {
    private ExtractBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        boolean regenerate = false;
        boolean instances = false;
        // the benchmark loop copies its input batch in an aten::to range once per iteration: DLProf's key node
        String keyNode = "aten::to";
        Path file = Path.of("bench-out", "nsys-1m.sqlite");
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--regenerate" -> regenerate = true;
                case "--key-node" -> keyNode = i + 1 < args.length ? args[++i] : null;
                case "--instances" -> instances = true;
                default -> {
                    if (a.startsWith("--")) {
                        System.err.println("usage: ExtractBenchmark [--regenerate] [--instances] [--key-node NAME] [FILE]");
                        System.exit(2);
                    }
                    file = Path.of(a);
                }
            }
        }
        Runtime rt = Runtime.getRuntime();
        System.out.printf(Locale.ROOT, "java %s, %d CPUs, max heap %d MB, load average %s%n",
                System.getProperty("java.version"), rt.availableProcessors(), rt.maxMemory() >> 20, loadAverage());

        if (regenerate || !Files.exists(file)) {
            long t0 = System.nanoTime();
            long c0 = cpuNs();
            Workload.Result r = Workload.generate(WorkloadSpec.benchmark1M(), file);
            System.out.printf(Locale.ROOT, "generated %s in %.2f s wall, %.2f s CPU (%d MB): %d kernels, %d CUDA API calls, "
                            + "%d NVTX events%n", file, secs(t0), (cpuNs() - c0) / 1e9, Files.size(file) >> 20, r.kernels(),
                    r.apiCalls(), r.nvtxEvents());
        } else {
            System.out.printf(Locale.ROOT, "reusing %s (%d MB)%n", file, Files.size(file) >> 20);
        }

        ProfileReaders readers = ProfileReaders.discover();
        ProfileReader reader;
        try {
            reader = readers.readerFor(file);
        } catch (ProfileException e) {
            System.out.println("no reader: " + e.getMessage() + " (readers on the class path: " + readers.formats() + ")");
            sqlite3(file);
            System.exit(1);
            return;
        }
        System.gc();
        resetPeaks();
        long gcBefore = gcCount();
        long gcTimeBefore = gcTime();
        ReadOptions options = new ReadOptions(keyNode, null, null);
        long t0 = System.nanoTime();
        long c0 = cpuNs();
        ProfileFacts facts = reader.read(file, options);
        double extractS = secs(t0);
        double extractCpu = (cpuNs() - c0) / 1e9;
        long peak = peakHeap();
        long kernelCalls = facts.kernels().stream().mapToLong(k -> k.gpuTime().count()).sum();
        System.out.printf(Locale.ROOT, "extract (%s, key node %s): %.2f s wall, %.2f s CPU, peak heap %d MB, %d GCs (%d ms)%n",
                reader.format(), keyNode, extractS, extractCpu, peak >> 20, gcCount() - gcBefore, gcTime() - gcTimeBefore);
        System.out.printf(Locale.ROOT, "  facts: %d ops, %d distinct kernels with %d launches, %d iterations, "
                        + "%d NVTX ranges, %d GPUs, %d warnings%n", facts.ops().size(), facts.kernels().size(), kernelCalls,
                facts.iterations().size(), facts.markers().nvtxRanges(), facts.gpus().size(), facts.warnings().size());
        for (GpuUsage g : facts.gpuUsage()) {
            System.out.printf(Locale.ROOT, "  GPU %d: %d kernels, utilisation %.1f %%%n", g.deviceId(), g.kernelCount(),
                    g.utilizationPct());
        }
        KernelFact top = facts.kernels().stream().max((a, b) -> Long.compare(a.gpuTime().total(), b.gpuTime().total())).orElse(null);
        if (top != null) System.out.printf(Locale.ROOT, "  top kernel: %s (%d launches)%n", top.name(), top.gpuTime().count());

        if (instances) {
            System.gc();
            resetPeaks();
            AtomicLong n = new AtomicLong();
            long t1 = System.nanoTime();
            long c1 = cpuNs();
            reader.streamInstances(file, options, i -> n.incrementAndGet());
            System.out.printf(Locale.ROOT, "streamInstances: %d instances in %.2f s wall, %.2f s CPU, peak heap %d MB%n",
                    n.get(), secs(t1), (cpuNs() - c1) / 1e9, peakHeap() >> 20);
        }
        sqlite3(file);
    }

    /** What merely reading the same rows costs: the {@code sqlite3} shell scanning the three big tables. */
    private static void sqlite3(Path file) throws InterruptedException {
        String sql = "SELECT count(*), sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL; "
                + "SELECT count(*), sum(end - start) FROM CUPTI_ACTIVITY_KIND_RUNTIME; "
                + "SELECT count(*), sum(coalesce(end, start) - start), sum(length(text)) FROM NVTX_EVENTS;";
        // bash's time keyword reports the child's CPU time too (last line: real user sys)
        List<String> cmd = new ArrayList<>(List.of("bash", "-c",
                "TIMEFORMAT='%R %U %S'; time sqlite3 -readonly \"$0\" \"$1\"", file.toString(), sql));
        try {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(5, TimeUnit.MINUTES)) p.destroyForcibly();
            String[] lines = out.split("\n");
            String[] t = lines[lines.length - 1].trim().split(" ");
            if (p.exitValue() != 0 || t.length != 3) {
                System.out.println("sqlite3 comparison failed: " + out.replace('\n', ' '));
                return;
            }
            double cpu = Double.parseDouble(t[1]) + Double.parseDouble(t[2]);
            System.out.printf(Locale.ROOT, "sqlite3 reading the same tables: %s s wall, %.2f s CPU (%s)%n", t[0], cpu,
                    String.join(" ", java.util.Arrays.copyOf(lines, lines.length - 1)));
        } catch (IOException e) {
            System.out.println("sqlite3 not on PATH: comparison skipped");
        }
    }

    /** The machine is shared: the 1-minute load average says how much the wall times mean. */
    static String loadAverage() {
        double l = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return l < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", l);
    }

    /** CPU time of the whole JVM (all threads, GC and JIT included): comparable across machine load. */
    private static long cpuNs() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }

    private static double secs(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    private static void resetPeaks() {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) p.resetPeakUsage();
        }
    }

    /** Sum of the heap pools' peak usage since the last reset: an upper bound of the live heap at any instant. */
    private static long peakHeap() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) sum += p.getPeakUsage().getUsed();
        }
        return sum;
    }

    private static long gcCount() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
    }

    private static long gcTime() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
    }
}
