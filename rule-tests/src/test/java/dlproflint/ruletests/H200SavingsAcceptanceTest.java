package dlproflint.ruletests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.IdleBreakdown;
import dlproflint.facts.ProfileFacts;
import dlproflint.packs.cost.UnprofiledIdle;
import dlproflint.findings.Finding;
import dlproflint.findings.Severity;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 24's acceptance on the labelled H200 folder ({@code ../shared/corpus/pytorch-h200-2026}): every case is
 * linted with every built-in pack and judged by its {@code labels.yaml}, data-driven, so a case added to the
 * folder is judged without a change here.
 *
 * <ul>
 *   <li><b>Savings.</b> For every case with a {@code baseline}: its expected rules fire, and the saving they
 *   estimate (the largest {@link dlproflint.findings.Impact#savingPct()} among the findings of the case's
 *   {@code expect} rules: they name one cause, so their savings overlap and do not add) is within ±30 % (relative)
 *   or ±5 points of the <i>measured</i> saving {@code 1 − step(baseline) / step(case)}. The step is the label's
 *   {@code pipelined_mean_ms}: the unprofiled loop's real back-to-back step (steps run without a sync between
 *   them, as training runs), not {@code mean_ms}, which adds a sync after every step and so hides exactly the
 *   overlap a host sync destroys.</li>
 *   <li>A case whose fix the measurement shows to be a loss (its baseline is slower: {@code mobilenet_fp32_default},
 *   where bf16 autocast made the launch-bound loop 1.6× slower) gets no finding promising an AMP saving.</li>
 *   <li><b>Labels.</b> Every {@code expect} / {@code expect_not} label of every single-trace case holds (the job case,
 *   {@code traces:}, is linted as a job by the cli's {@code GlooJobTest}).</li>
 *   <li>A case with a {@code source} (the with-stack host-sync case) has its expected finding located at that file
 *   and line.</li>
 *   <li><b>The profiler's overhead.</b> The healthy twins get no utilization or memory-headroom <i>error</i>, and the
 *   step replayed without the profiler's host cost is checked against the measured unprofiled step.</li>
 * </ul>
 * The table (case, rule, measured, estimated) is printed to standard output. Cases whose cost model is known to
 * miss the bound are listed, each with its reason, in {@code h200-savings-known-gaps.json} beside this test: their
 * rule must still fire, and they must still be outside the bound (the list cannot go stale); the issue is open
 * while the list is not empty.
 * Corpus absent: skipped with a notice; under {@code CI=true}: a failure ({@link Corpus}).
 */
class H200SavingsAcceptanceTest {
    static final String FOLDER = "pytorch-h200-2026";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The rules that promise a saving from lower precision (AMP, TF32, BF16). */
    static final Set<String> PRECISION_SAVINGS = Set.of("dlprof/amp-not-used", "pytorch/tf32-off", "pytorch/fp16-not-bf16");
    /** Symptoms a host-bound loop shows, made worse by the profiler's own host overhead. */
    static final Set<String> UTILIZATION_RULES = Set.of("dlprof/underutilized-gpu", "nsys/gpu-low-utilization",
            "pytorch/memory-headroom");
    static final double RELATIVE_TOLERANCE = 0.30;
    static final double POINTS_TOLERANCE = 5.0;

    private static Map<String, List<Finding>> linted = new LinkedHashMap<>();
    /** Cases whose cost model is known to miss the bound (case -> why), kept beside the test; issue 24 is open while any is listed. */
    static final Map<String, String> KNOWN_GAPS = knownGaps();

    private static Map<String, String> knownGaps() {
        try (var in = H200SavingsAcceptanceTest.class.getResourceAsStream("/h200-savings-known-gaps.json")) {
            Map<String, String> gaps = new LinkedHashMap<>();
            JSON.readTree(in).fields().forEachRemaining(e -> {
                if (!e.getKey().startsWith("_")) gaps.put(e.getKey(), e.getValue().asText());
            });
            return gaps;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static JsonNode labels() throws Exception {
        return JSON.readTree(Corpus.file(FOLDER + "/labels.yaml").toFile());
    }

    static synchronized List<Finding> findings(String caseName, JsonNode c) throws Exception {
        List<Finding> f = linted.get(caseName);
        if (f == null) {
            f = AllPacks.engine().lint(facts(caseName, c));
            linted.put(caseName, f);
        }
        return f;
    }

    private static final Map<String, ProfileFacts> read = new LinkedHashMap<>();

    static synchronized ProfileFacts facts(String caseName, JsonNode c) throws Exception {
        ProfileFacts f = read.get(caseName);
        if (f == null) {
            f = ProfileReaders.discover().read(Corpus.file(FOLDER + "/" + c.get("trace").asText()), ReadOptions.DEFAULT);
            read.put(caseName, f);
        }
        return f;
    }

    /** {@code 1 − step(baseline)/step(case)} in percent, on the unprofiled back-to-back step. */
    static double measuredSavingPct(JsonNode labels, JsonNode c) {
        JsonNode base = labels.get("cases").get(c.get("baseline").asText());
        double stepCase = c.get("step_time").get("pipelined_mean_ms").asDouble();
        double stepBase = base.get("step_time").get("pipelined_mean_ms").asDouble();
        return 100 * (1 - stepBase / stepCase);
    }

    /**
     * The measured saving against each unprofiled run of the baseline's own loop: the baseline and the cases the
     * labels call the same code run again ({@code "gpt_healthy again"}, {@code "gpt_healthy profiled with ..."}).
     * Their spread is the measurement's run-to-run noise; printed beside the saving, not used to judge it.
     */
    static double[] measuredRangePct(JsonNode labels, JsonNode c) {
        String base = c.get("baseline").asText();
        double stepCase = c.get("step_time").get("pipelined_mean_ms").asDouble();
        double lo = Double.MAX_VALUE;
        double hi = -Double.MAX_VALUE;
        for (Map.Entry<String, JsonNode> e : cases(labels)) {
            String config = e.getValue().path("config").asText("");
            boolean rerun = e.getKey().equals(base) || config.startsWith(base + " again") || config.startsWith(base + " profiled");
            JsonNode step = e.getValue().path("step_time").path("pipelined_mean_ms");
            if (!rerun || !step.isNumber()) continue;
            double saving = 100 * (1 - step.asDouble() / stepCase);
            lo = Math.min(lo, saving);
            hi = Math.max(hi, saving);
        }
        return new double[] {lo, hi};
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** The largest saving the case's expected rules estimate, or NaN when none of them fired. */
    static double estimatedSavingPct(List<String> expect, List<Finding> findings) {
        return findings.stream().filter(f -> expect.contains(f.ruleId()))
                .mapToDouble(f -> f.impact() == null ? 0 : f.impact().savingPct()).max().orElse(Double.NaN);
    }

    static String firing(List<String> rules, List<Finding> findings) {
        StringBuilder sb = new StringBuilder();
        for (Finding f : findings) {
            if (!rules.isEmpty() && !rules.contains(f.ruleId())) continue;
            sb.append("\n    ").append(f.ruleId()).append(" [").append(f.severity()).append("] ")
                    .append(f.impact() == null ? "no cost" : String.format("saving %.1f%%", f.impact().savingPct()))
                    .append(": ").append(f.problem());
        }
        return sb.toString();
    }

    private static Iterable<Map.Entry<String, JsonNode>> cases(JsonNode labels) {
        Iterator<Map.Entry<String, JsonNode>> it = labels.get("cases").fields();
        return () -> it;
    }

    /** One case's check. */
    private interface CaseCheck {
        void check(String name, JsonNode c) throws Exception;
    }

    /** A dynamic test per case of the folder that {@code which} selects. */
    private static Stream<DynamicTest> perCase(java.util.function.BiPredicate<String, JsonNode> which, CaseCheck check)
            throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : cases(labels())) {
            String name = e.getKey();
            JsonNode c = e.getValue();
            if (which.test(name, c)) tests.add(DynamicTest.dynamicTest(name, () -> check.check(name, c)));
        }
        return tests.stream();
    }

    @Test
    void printsTheSavingsTable() throws Exception {
        JsonNode labels = labels();
        StringBuilder table = new StringBuilder("\n" + FOLDER + ": measured saving = 1 - step(baseline)/step(case), "
                + "pipelined_mean_ms (unprofiled, steps back to back); reruns: the same against every unprofiled run of the"
                + " baseline's loop (run-to-run noise)\n");
        table.append(String.format("%-28s %-26s %9s %13s %9s  %s%n", "case", "rule", "measured", "reruns", "estimated",
                "verdict"));
        for (Map.Entry<String, JsonNode> e : cases(labels)) {
            JsonNode c = e.getValue();
            if (!c.has("baseline") || !c.has("trace")) continue;
            double measured = measuredSavingPct(labels, c);
            double[] range = measuredRangePct(labels, c);
            String reruns = range[1] - range[0] < 0.05 ? "-" : String.format("%.1f..%.1f%%", range[0], range[1]);
            List<String> expect = strings(c.get("expect"));
            List<Finding> f = findings(e.getKey(), c);
            List<String> rules = expect.isEmpty() ? List.copyOf(PRECISION_SAVINGS) : expect;
            for (String rule : rules) {
                double est = estimatedSavingPct(List.of(rule), f);
                if (expect.isEmpty() && Double.isNaN(est)) continue;
                table.append(String.format("%-28s %-26s %8.1f%% %13s %9s  %s%n", e.getKey(), rule, measured, reruns,
                        Double.isNaN(est) ? "-" : String.format("%.1f%%", est),
                        expect.isEmpty() ? (est > 0.5 ? "promises a saving" : "ok")
                                : within(est, measured) ? "ok"
                                : within(estimatedSavingPct(expect, f), measured) ? "ok for the case (another expected rule)"
                                : KNOWN_GAPS.containsKey(e.getKey()) ? "OFF (known gap)" : "OFF"));
            }
        }
        System.out.println(table);
        assertTrue(table.length() > 0);
    }

    /**
     * The step the reader replays without the profiler's host overhead ({@code profiler-overhead}) against the measured
     * unprofiled step ({@code pipelined_mean_ms}), on every case that has both. The estimate is of the host's clock:
     * these loops are host-bound (or GPU-bound, where the replay keeps the GPU's time). Measured errors, printed as a
     * table: -35 % to +7 %, most within ±17 %; the healthy GPT twins' own measured steps differ by 10 %. The bound below
     * is what the estimate is documented to do (docs/cli.md, "The profiler's own overhead").
     */
    @Test
    void theStepReplayedWithoutTheProfilerIsCloseToTheMeasuredUnprofiledStep() throws Exception {
        JsonNode labels = labels();
        StringBuilder table = new StringBuilder(String.format("%n%-28s %9s %9s %9s %7s%n", "case", "profiled", "replayed",
                "measured", "error"));
        List<Double> errors = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : cases(labels)) {
            JsonNode c = e.getValue();
            if (!c.has("trace") || !c.path("step_time").has("pipelined_mean_ms")) continue;
            ProfileFacts f = facts(e.getKey(), c);
            if (f.profilerOverhead() == null) continue;
            double replayed = f.profilerOverhead().unprofiledStepNs() / 1e6;
            double measured = c.get("step_time").get("pipelined_mean_ms").asDouble();
            double error = replayed / measured - 1;
            errors.add(error);
            table.append(String.format("%-28s %7.1f ms %6.1f ms %6.1f ms %+6.0f%%%n", e.getKey(),
                    f.profilerOverhead().profiledStepNs() / 1e6, replayed, measured, 100 * error));
            assertTrue(error > -MAX_UNDER && error < MAX_OVER, e.getKey() + ": replayed " + replayed + " ms against "
                    + measured + " ms measured" + table);
        }
        System.out.println(table);
        assertTrue(errors.size() >= 8, "the folder's cases with a replay: " + errors.size());
        List<Double> abs = errors.stream().map(Math::abs).sorted().toList();
        assertTrue(abs.get(abs.size() / 2) < 0.15, "median error " + abs.get(abs.size() / 2) + table);
    }

    /**
     * The GPU's idle share of the step, as the idle-breakdown, launch and utilization findings judge it
     * ({@link UnprofiledIdle}: the profiled idle less the host time the capture added per step, of the replayed step),
     * against the measured one: the unprofiled step ({@code pipelined_mean_ms}) less the GPU's busy time per step, which
     * the profiler does not change. Over the cases with both it must be closer to the measured share than the profiled
     * idle share the findings stated before (which overstated it by up to 43 points, 20 at the median): in three of four cases, with half
     * the median error, and every case within {@link #IDLE_POINTS}.
     */
    @Test
    void theGpuIdleIsJudgedOnTheLoopWithoutTheProfiler() throws Exception {
        JsonNode labels = labels();
        StringBuilder table = new StringBuilder(String.format("%n%-28s %9s %9s %11s %9s%n", "case", "profiled",
                "judged", "measured", "error"));
        List<Double> errors = new ArrayList<>();
        List<Double> before = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : cases(labels)) {
            JsonNode c = e.getValue();
            if (!c.has("trace") || !c.path("step_time").has("pipelined_mean_ms")) continue;
            ProfileFacts f = facts(e.getKey(), c);
            UnprofiledIdle u = UnprofiledIdle.busiest(f.idleBreakdowns(), f.iterationSummary(),
                    f.profilerOverhead() == null ? List.of() : List.of(f.profilerOverhead()));
            if (u == null || !u.corrected()) continue;
            IdleBreakdown i = u.breakdown();
            int steps = f.iterationSummary().aggregated();
            double busyPerStep = (i.spanNs() - i.idleNs()) / (double) steps / 1e6;
            double profiledPct = Math.min(100, 100 * i.idleNs() / (double) steps / f.iterationSummary().avgDurationNs());
            double measuredStep = c.get("step_time").get("pipelined_mean_ms").asDouble();
            double measuredPct = 100 * Math.max(0, measuredStep - busyPerStep) / measuredStep;
            double judged = u.idlePct();
            errors.add(Math.abs(judged - measuredPct));
            before.add(Math.abs(profiledPct - measuredPct));
            table.append(String.format("%-28s %8.1f%% %8.1f%% %10.1f%% %+8.1f%n", e.getKey(), profiledPct, judged,
                    measuredPct, judged - measuredPct));
        }
        System.out.println(table);
        assertTrue(errors.size() >= 8, "the folder's cases with a corrected idle: " + errors.size());
        long closer = java.util.stream.IntStream.range(0, errors.size()).filter(k -> errors.get(k) < before.get(k)).count();
        assertTrue(closer * 4 >= errors.size() * 3, "closer to the measured idle in only " + closer + " of "
                + errors.size() + " cases" + table);
        assertTrue(median(errors) < median(before) / 2, "median error " + median(errors) + " points against "
                + median(before) + " as profiled" + table);
        for (double err : errors) assertTrue(err <= IDLE_POINTS, err + " points off" + table);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    /**
     * How far the judged idle share may be from the measured one, in points of the step: the replayed step's own error
     * (above) carries over, and the GPT FP16 case's measured step is 5 ms off its baseline's reruns.
     */
    static final double IDLE_POINTS = 25;

    /** The replay may take off this much too much of the host (the estimate counts some of an op's own work). */
    static final double MAX_UNDER = 0.40;
    static final double MAX_OVER = 0.15;

    static boolean within(double estimated, double measured) {
        if (Double.isNaN(estimated)) return false;
        double gap = Math.abs(estimated - measured);
        return gap <= POINTS_TOLERANCE || gap <= RELATIVE_TOLERANCE * Math.abs(measured);
    }

    @TestFactory
    Stream<DynamicTest> everyCaseWithABaselineGetsItsMeasuredSaving() throws Exception {
        JsonNode labels = labels();
        return perCase((name, c) -> c.has("baseline") && c.has("trace"), (name, c) -> {
            double measured = measuredSavingPct(labels, c);
            List<String> expect = strings(c.get("expect"));
            List<Finding> f = findings(name, c);
            if (measured <= 0) {
                // removing the "cause" made it slower: no rule may promise a precision saving here
                for (Finding x : f) {
                    if (!PRECISION_SAVINGS.contains(x.ruleId())) continue;
                    assertTrue(x.impact() == null || x.impact().savingPct() < 0.5, name + ": measured "
                            + String.format("%.1f%%", measured) + " (the baseline is slower), yet" + firing(List.of(x.ruleId()), f));
                }
                return;
            }
            assertFalse(expect.isEmpty(), name + ": a case with a positive measured saving names its rule in expect");
            double est = estimatedSavingPct(expect, f);
            assertFalse(Double.isNaN(est), name + ": none of " + expect + " fired:" + firing(List.of(), f));
            String gap = KNOWN_GAPS.get(name);
            if (gap != null) {
                // a ratchet, not a pass: the case must still be outside its bound, so the list cannot go stale
                System.out.printf("KNOWN GAP %s: %s estimate %.1f%%, measured %.1f%%: %s%n", name, expect, est, measured, gap);
                assertFalse(within(est, measured), String.format("%s is now within its bound (%.1f%% vs %.1f%%): take it "
                        + "off h200-savings-known-gaps.json", name, est, measured));
                return;
            }
            assertTrue(within(est, measured), String.format("%s: %s estimate %.1f%% of the step, measured %.1f%% "
                    + "(±30%% relative or ±5 points):%s", name, expect, est, measured, firing(List.of(), f)));
        });
    }

    @TestFactory
    Stream<DynamicTest> everyExpectAndExpectNotLabelHolds() throws Exception {
        // a job (traces:) is linted as one by the cli's GlooJobTest, which names rank 1
        return perCase((name, c) -> c.has("trace"), (name, c) -> {
            List<Finding> f = findings(name, c);
            Set<String> fired = new java.util.TreeSet<>();
            f.forEach(x -> fired.add(x.ruleId()));
            for (String rule : strings(c.get("expect"))) {
                assertTrue(fired.contains(rule), name + ": expected " + rule + ":" + firing(List.of(), f));
            }
            for (String rule : strings(c.get("expect_not"))) {
                assertFalse(fired.contains(rule), name + ": must not fire " + rule + ":" + firing(List.of(rule), f));
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> aCaseWithASourceLineIsLocatedThere() throws Exception {
        return perCase((name, c) -> c.has("source") && c.has("trace"), (name, c) -> {
            String file = c.get("source").get("file").asText();
            int line = c.get("source").get("line").asInt();
            List<String> expect = strings(c.get("expect"));
            List<Finding> f = findings(name, c).stream().filter(x -> expect.contains(x.ruleId())).toList();
            assertFalse(f.isEmpty(), name + ": none of " + expect + " fired");
            for (Finding x : f) {
                assertTrue(x.location() != null, name + ": " + x.ruleId() + " has no location");
                assertTrue(x.location().file().endsWith(file), name + ": " + x.ruleId() + " at " + x.location() + ", labelled " + file + ":" + line);
                if (x.location().line() == line) continue;
                // PyTorch 2.x records Python stacks as python_function events, each named by its function's first
                // line (record_gpu_cases.py(104): step), not by the line of the call inside it: the innermost user
                // frame is the function that holds the labelled line, and the finding must say so, not guess a line
                assertTrue(x.location().line() > 0 && x.location().line() <= line, name + ": " + x.ruleId() + " at "
                        + x.location() + " cannot hold the labelled line " + line);
                assertTrue(x.problem().contains("name functions, not the line of the call"), name + ": " + x.problem());
                System.out.println("NOTICE: " + name + ": " + x.ruleId() + " at " + x.location() + " (function "
                        + x.location().function() + "), labelled line " + line + ": the trace has no call lines");
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> healthyLoopsGetNoUtilizationErrorMadeOfTheProfilersOverhead() throws Exception {
        // the healthy GPT twins: a well-fed loop whose profiled steps are slowed by the capture itself
        return perCase((name, c) -> name.startsWith("gpt_healthy") && c.has("trace"), (name, c) -> {
            List<Finding> f = findings(name, c);
            for (Finding x : f) {
                assertFalse(UTILIZATION_RULES.contains(x.ruleId()) && x.severity() == Severity.ERROR,
                        name + ": an error made of the profiler's overhead:" + firing(List.of(x.ruleId()), f));
            }
        });
    }
}
