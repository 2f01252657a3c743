package dlproflint.ruletests;

import dlproflint.engine.LintEngine;
import dlproflint.engine.run.CauseLinks;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.Iteration;
import dlproflint.facts.IterationKernel;
import dlproflint.facts.ProfileFacts;
import dlproflint.findings.Finding;
import dlproflint.findings.Impact;
import dlproflint.testing.Corpus;
import dlproflint.testing.SqliteVariant;
import dlproflint.testing.TimelineVariants;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lag invariance (issue 23), a test per reader on every corpus profile of its format: the same profile with the GPU
 * falling behind the host - every GPU activity launched in step {@code s} delayed by {@code (s + 1)} median steps
 * (a thousandth of the capture for a profile without steps), each stream keeping its order and every activity its
 * duration ({@link TimelineVariants}) - keeps every finding and moves no per-step figure by more than 2 %: step
 * durations, GPU time, busy time, span and utilization of every step, every op's GPU time per step, the tensor-core
 * share, the time breakdown, and every finding's impact: as its rule measured it ({@link LintEngine#measure}), and
 * what is left of it once time two findings claim is counted once ({@link CauseLinks}), in every pool of shared time
 * that no timeline-shape rule (below) claims from. Where one does, which finding reports the shared time follows that
 * rule's figure, which the delay changes (its measured time lost is still compared).
 *
 * <p>What the delay does change is the GPU timeline's own shape: it inserts idle time between the steps' work, and it
 * moves the GPU's work after the host calls that waited for it. The rules that measure that shape see a different
 * GPU, as they should, and are left out of the comparison: the gaps and low-utilization periods of the GPU timeline
 * ({@code nsys/gpu-gaps}, {@code nsys/gpu-low-utilization}); the idle time of the busiest stream over its whole span
 * and its launch gaps ({@code pytorch/idle-breakdown}, {@code pytorch/cuda-graph-candidate}); the delay from a launch
 * call to its kernel and the launch queue ({@code pytorch/cpu-bound-launches}); and the GPU idle time after a host
 * synchronisation returned ({@code pytorch/host-sync-in-step}: a real GPU cannot run a step's work after the
 * {@code cudaDeviceSynchronize} that waited for it has returned, which the delayed profile shows); and the gaps after
 * short kernels ({@code pytorch/short-kernels}), which are judged without the profiler's own host cost in the proportion
 * it left of the busiest stream's launch gaps: a GPU far behind its host waits for no launch, so nothing is taken out.
 *
 * <p>A profile whose steps overlap on the GPU (a step's work starting, on another stream, before the previous step's
 * ended) is not the same run delayed: a delay that grows from step to step pulls the overlapping steps apart, so the
 * GPU no longer runs them at once and each step's GPU side grows back to its whole span. For such a profile the test
 * keeps what belongs to each step alone (its kernels, GPU time, busy time, span, tensor-core time and its ops' GPU
 * time) and checks that each delayed step lasts at least as long as before; the durations, shares and findings are
 * the ones of a different run.
 */
class GpuLagInvarianceTest {
    /** Rules about the GPU timeline's own gaps and launch delays, which the delay changes by construction. */
    static final Set<String> TIMELINE_SHAPE_RULES = Set.of("nsys/gpu-gaps", "nsys/gpu-low-utilization",
            "pytorch/idle-breakdown", "pytorch/cuda-graph-candidate", "pytorch/cpu-bound-launches",
            "pytorch/host-sync-in-step", "pytorch/short-kernels");
    private static final double TOLERANCE = 0.02;

    private static LintEngine engine;
    private static ProfileReaders readers;

    @TempDir
    static Path dir;

    @BeforeAll
    static void load() throws Exception {
        engine = AllPacks.builtin();
        readers = AllPacks.readers();
    }

    @TestFactory
    Stream<DynamicTest> nsysExports() {
        return cases(p -> p.endsWith(".sqlite") && !p.contains("dlprof_dldb"), (rel, f) -> {
            Path copy = SqliteVariant.of(Corpus.file(rel), dir, "lag-" + rel);
            TimelineVariants.nsysGpuLag(copy, starts(f), delta(f));
            return copy;
        });
    }

    @TestFactory
    Stream<DynamicTest> kinetoTraces() {
        return cases(p -> p.endsWith(".json") || p.endsWith(".json.gz"),
                (rel, f) -> TimelineVariants.kinetoGpuLag(Corpus.file(rel), dir, "lag-" + rel, starts(f), delta(f)));
    }

    @TestFactory
    Stream<DynamicTest> dlprofDatabases() {
        return cases(p -> p.contains("dlprof_dldb"), (rel, f) -> {
            Path copy = SqliteVariant.of(Corpus.file(rel), dir, "lag-" + rel);
            TimelineVariants.dldbGpuLag(copy, delta(f));
            return copy;
        });
    }

    private interface Lag {
        Path apply(String rel, ProfileFacts original) throws Exception;
    }

    private Stream<DynamicTest> cases(Predicate<String> format, Lag lag) {
        List<DynamicTest> tests = new ArrayList<>();
        for (String rel : Corpus.profiles()) {
            if (!format.test(rel)) continue;
            tests.add(DynamicTest.dynamicTest(rel, () -> {
                ProfileFacts before;
                try {
                    before = readers.read(Corpus.file(rel), ReadOptions.DEFAULT);
                } catch (ProfileException e) {
                    return; // not a profile (another test's business)
                }
                ProfileFacts after = readers.read(lag.apply(rel, before), ReadOptions.DEFAULT);
                compare(rel, before, after);
            }));
        }
        assertTrue(tests.size() > 0, "corpus profiles of the format");
        return tests.stream();
    }

    static long[] starts(ProfileFacts f) {
        return f.iterations().stream().mapToLong(Iteration::startNs).toArray();
    }

    /**
     * A median step, so the GPU ends several steps behind; a thousandth of the capture without steps (the single interval
     * is the capture, which the delay stretches).
     */
    static long delta(ProfileFacts f) {
        if (f.iterations().size() <= 1) return Math.max(1_000, f.profile().wallNs() / 1000);
        long[] d = f.iterations().stream().mapToLong(Iteration::stepNs).sorted().toArray();
        return Math.max(1_000, d[d.length / 2]);
    }

    private static void compare(String rel, ProfileFacts a, ProfileFacts b) throws Exception {
        boolean overlapping = overlapOnGpu(a);
        assertEquals(a.iterations().size(), b.iterations().size(), rel + ": steps");
        for (int i = 0; i < a.iterations().size(); i++) {
            Iteration x = a.iterations().get(i);
            Iteration y = b.iterations().get(i);
            String at = rel + " step " + i;
            assertEquals(x.kernelCount(), y.kernelCount(), at + " kernels");
            near(x.gpuTimeNs(), y.gpuTimeNs(), at + " GPU time");
            near(x.gpuBusyNs(), y.gpuBusyNs(), at + " busy time");
            near(x.gpuSpanNs(), y.gpuSpanNs(), at + " GPU span");
            near(x.tcTimeNs(), y.tcTimeNs(), at + " tensor-core time");
            if (overlapping) {
                assertTrue(y.stepNs() >= x.stepNs() * (1 - TOLERANCE), at + ": the steps pulled apart last at least as long");
            } else {
                near(x.stepNs(), y.stepNs(), at + " duration");
                near(x.gpuUtilizationPct(), y.gpuUtilizationPct(), at + " utilization");
            }
        }
        Map<String, Long> opsA = opsPerStep(a);
        Map<String, Long> opsB = opsPerStep(b);
        if (overlapping) { // the steady window may differ: the steps aggregated in both
            opsA.keySet().removeIf(k -> !aggregated(b, k));
            opsB.keySet().removeIf(k -> !aggregated(a, k));
        }
        assertEquals(opsA.keySet(), opsB.keySet(), rel + ": ops per step");
        for (String k : opsA.keySet()) near(opsA.get(k), opsB.get(k), rel + " op time per step " + k);
        if (overlapping) return;
        assertEquals(a.iterationSummary().aggStart(), b.iterationSummary().aggStart(), rel + ": aggregated range");
        assertEquals(a.iterationSummary().aggStop(), b.iterationSummary().aggStop(), rel + ": aggregated range");
        assertEquals(a.iterationSummary().binding(), b.iterationSummary().binding(), rel + ": binding side");
        near(a.breakdown().wallNs(), b.breakdown().wallNs(), rel + " wall");
        near(a.breakdown().tcUtilizationPct(), b.breakdown().tcUtilizationPct(), rel + " tensor-core share");
        near(a.breakdown().gpuUtilizationPct(), b.breakdown().gpuUtilizationPct(), rel + " GPU utilization");
        near(a.breakdown().cpuPct(), b.breakdown().cpuPct(), rel + " CPU share");
        near(a.breakdown().dataloaderPct(), b.breakdown().dataloaderPct(), rel + " data-loader share");
        near(a.breakdown().otherPct(), b.breakdown().otherPct(), rel + " other share");

        // what each rule measured
        sameImpacts(rel, findings(engine.measure(a)), findings(engine.measure(b)), k -> true);
        // what is left of it once shared time is counted once: the same, in every pool no timeline-shape rule claims from
        List<Finding> la = engine.lint(a);
        List<Finding> lb = engine.lint(b);
        Set<String> shaped = shapedPools(la);
        shaped.addAll(shapedPools(lb));
        Map<String, Finding> fa = findings(la);
        sameImpacts(rel + " (counted once)", fa, findings(lb), k -> !shaped.contains(CauseLinks.pool(fa.get(k))));
    }

    private static void sameImpacts(String rel, Map<String, Finding> fa, Map<String, Finding> fb, Predicate<String> saving) {
        assertEquals(fa.keySet(), fb.keySet(), rel + ": the same findings");
        for (String k : fa.keySet()) {
            Impact x = fa.get(k).impact();
            Impact y = fb.get(k).impact();
            assertEquals(x == null, y == null, rel + " " + k + ": impact measured");
            if (x == null) continue;
            near(x.lostNs(), y.lostNs(), rel + " " + k + " time lost");
            if (saving.test(k)) near(x.savingPct(), y.savingPct(), rel + " " + k + " saving share");
        }
    }

    /**
     * The pools of shared time ({@link CauseLinks#pool}) a timeline-shape finding claims from: there the split of the
     * time between findings follows the timeline-shape rules' figures, which the delay changes (which symptom measures
     * the larger idle time, how much a launch-gap finding takes before another).
     */
    private static Set<String> shapedPools(List<Finding> all) {
        Set<String> out = new HashSet<>();
        for (Finding f : all) {
            String pool = CauseLinks.pool(f);
            if (pool != null && TIMELINE_SHAPE_RULES.contains(f.ruleId())) out.add(pool);
        }
        return out;
    }

    /** Whether the step of an {@link #opsPerStep} key is aggregated in {@code f}. */
    private static boolean aggregated(ProfileFacts f, String key) {
        int step = Integer.parseInt(key.substring(0, key.indexOf(' ')));
        return f.iterations().stream().anyMatch(it -> it.index() == step && it.aggregated());
    }

    /** Whether a step's GPU work started before the earlier steps' had ended (by more than a microsecond). */
    static boolean overlapOnGpu(ProfileFacts f) {
        long before = Long.MIN_VALUE;
        for (Iteration it : f.iterations()) {
            if (it.gpuStartNs() < 0) continue;
            if (it.gpuStartNs() + 1_000 < before) return true;
            before = Math.max(before, it.gpuEndNs());
        }
        return false;
    }

    /** Findings by rule and subject, the timeline-shape rules left out. */
    private static Map<String, Finding> findings(List<Finding> all) {
        Map<String, Finding> m = new TreeMap<>();
        for (Finding f : all) {
            if (TIMELINE_SHAPE_RULES.contains(f.ruleId())) continue;
            m.put(f.ruleId() + " " + (f.subject() == null ? "" : f.subject().key()), f);
        }
        return m;
    }

    /** (step, op) → the op's kernel time in the step, from the per-step kernel rows. */
    private static Map<String, Long> opsPerStep(ProfileFacts f) {
        Map<String, Long> m = new TreeMap<>();
        for (IterationKernel k : f.iterationKernels()) m.merge(k.iteration() + " " + k.opId(), k.gpuTimeNs(), Long::sum);
        return m;
    }

    /**
     * Within 2 % (of the larger), or within a microsecond for times near zero and a fifth of a point for shares (a share
     * of a few tenths of a percent moves that much when a capture without steps stretches by a thousandth).
     */
    private static void near(double x, double y, String what) {
        boolean pct = what.endsWith("share") || what.endsWith("utilization");
        double floor = pct ? 0.2 : 1_000;
        double tol = Math.max(TOLERANCE * Math.max(Math.abs(x), Math.abs(y)), floor);
        assertEquals(x, y, tol, what + ": " + x + " -> " + y);
    }
}
