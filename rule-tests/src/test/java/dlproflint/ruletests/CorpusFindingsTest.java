package dlproflint.ruletests;

import dlproflint.findings.Finding;
import dlproflint.engine.LintEngine;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Corpus parity of the {@code dlprof} pack (issue 3, item 5): the real nsys exports of the shared
 * corpus, read by the real readers and linted by the built-in packs, give exactly the findings listed
 * here. The numbers of the DLProf parity pair come from DLProf's own CSV reports beside the database,
 * parsed at test time; every other expectation is backed by a hand check with {@code sqlite3} (quoted
 * in the comments).
 */
class CorpusFindingsTest {
    private static LintEngine engine;
    private static ProfileReaders readers;

    @BeforeAll
    static void load() throws Exception {
        engine = AllPacks.builtin();
        readers = AllPacks.readers();
    }

    private static List<Finding> lint(String corpusFile, ReadOptions options) throws Exception {
        ProfileFacts facts = readers.read(Corpus.file(corpusFile), options);
        // only this pack's findings: other built-in packs have their own corpus expectations
        return engine.lint(facts).stream().filter(f -> "dlprof".equals(f.packId())).toList();
    }

    private static List<Finding> lint(String corpusFile) throws Exception {
        return lint(corpusFile, ReadOptions.DEFAULT);
    }

    /** rule id -> number of findings, sorted, for readable assertion failures. */
    private static Map<String, Integer> counts(List<Finding> findings) {
        Map<String, Integer> m = new TreeMap<>();
        for (Finding f : findings) m.merge(f.ruleId(), 1, Integer::sum);
        return m;
    }

    private static Finding only(List<Finding> findings, String ruleId) {
        List<Finding> l = findings.stream().filter(f -> f.ruleId().equals(ruleId)).toList();
        assertEquals(1, l.size(), ruleId + " in " + findings);
        return l.get(0);
    }

    private static double number(Finding f, String key) {
        Object v = f.evidence().get(key);
        assertTrue(v instanceof Number, key + " in " + f.evidence());
        return ((Number) v).doubleValue();
    }

    private static String group(Pattern p, String text) {
        Matcher m = p.matcher(text);
        assertTrue(m.find(), p + " not found in DLProf's report:\n" + text);
        return m.group(1);
    }

    @Test
    void wReluMatchesDlprofExpertSystemsWithDlprofNumbers() throws Exception {
        Path dir = Corpus.file("mohanadodema-dlprof/w_Relu/dlprof_expert_systems.csv").getParent();
        String expert = Files.readString(dir.resolve("dlprof_expert_systems.csv"));
        String summary = Files.readString(dir.resolve("dlprof_summary.csv"));
        int dlprofEligibleOps = Integer.parseInt(group(Pattern.compile("\"(\\d+) ops? (?:were|was) eligible to use tensor cores"), expert));
        String dlprofGpuUtil = group(Pattern.compile("Only ([\\d.]+)% of the profiled time is spent on GPU kernel"), expert);
        String dlprofCategory = group(Pattern.compile("\"(\\w+) has the highest \\(non-GPU\\) usage at [\\d.]+%"), expert);
        String dlprofCategoryPct = group(Pattern.compile("has the highest \\(non-GPU\\) usage at ([\\d.]+)%"), expert);
        long dlprofEligibleGpuNs = Long.parseLong(group(Pattern.compile("Ops eligible for TC but not using,(\\d+),"), summary));
        assertTrue(expert.contains("Unable to split profile into training iterations"), expert);

        List<Finding> findings = lint("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite");
        // DLProf's fourth line, "No DALI ops detected", is deliberately not a finding (dataloader-bound.md)
        assertEquals(Map.of("dlprof/amp-not-used", 1, "dlprof/no-iterations", 1, "dlprof/underutilized-gpu", 1),
                counts(findings), findings.toString());

        Finding amp = only(findings, "dlprof/amp-not-used");
        assertEquals(dlprofEligibleOps, (int) number(amp, "eligibleOps"));
        assertTrue(amp.problem().startsWith(dlprofEligibleOps + " ops were eligible for tensor cores but none ran"), amp.problem());
        assertEquals(dlprofEligibleGpuNs, number(amp, "eligibleGpuTimeNs"), dlprofEligibleGpuNs * 0.01);
        assertTrue(amp.problem().contains("(" + Math.round(dlprofEligibleGpuNs / 1000.0) + " µs of GPU time"), amp.problem());
        // the conv op's own line in the model, not the library frame or the outer call site
        assertEquals("dummy_network.py:25", String.valueOf(amp.location()));

        Finding gpu = only(findings, "dlprof/underutilized-gpu");
        assertEquals("profile", gpu.subject().kind());
        assertTrue(gpu.problem().startsWith("GPU utilization " + dlprofGpuUtil + "%: " + dlprofCategory
                + " has the highest non-GPU share, " + dlprofCategoryPct + "%"), gpu.problem());
        assertEquals(Double.parseDouble(dlprofCategoryPct), number(gpu, "cpuPct"), 0.05);

        Finding it = only(findings, "dlprof/no-iterations");
        assertTrue(it.problem().contains("no key node was given and no step markers or regularly repeating step were found"),
                it.problem());
        // a single forward pass: no op repeats, so there is no key node to propose
        assertTrue(it.problem().contains("ran more than once, so the capture holds at most one step"), it.problem());
    }

    /** DLProf's own findings in a DLProf database: exp_sys_id -> problem + " / " + recommendation. */
    private static Map<String, String> dlprofFeedback(Path dldb) throws Exception {
        Map<String, String> m = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dldb, props());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT exp_sys_id, problem, recommendation FROM expert_systems_feedback ORDER BY id")) {
            while (rs.next()) m.put(rs.getString(1), rs.getString(2) + " / " + rs.getString(3));
        }
        return m;
    }

    private static java.util.Properties props() {
        org.sqlite.SQLiteConfig cfg = new org.sqlite.SQLiteConfig();
        cfg.setReadOnly(true); // corpus files are never modified
        return cfg.toProperties();
    }

    @Test
    void dlprofDatabaseOfALiveRunGivesDlprofsFindingsWithDlprofsNumbers() throws Exception {
        // root/dlprof_dldb.sqlite: DLProf's live run, the only corpus file with GPU memory use recorded.
        Path dldb = Corpus.file("mohanadodema-dlprof/root/dlprof_dldb.sqlite");
        Map<String, String> dlprof = dlprofFeedback(dldb);
        assertEquals(List.of("amp_detector", "underutilized_gpu_detector", "dataloader_detector",
                "no_iterations_detector", "batch_size_detector"), List.copyOf(dlprof.keySet()));
        int ops = Integer.parseInt(group(Pattern.compile("^(\\d+) ops were eligible"), dlprof.get("amp_detector")));
        String cpu = group(Pattern.compile("CPU has the highest \\(non-GPU\\) usage at ([\\d.]+)%"), dlprof.get("underutilized_gpu_detector"));
        int mem = Integer.parseInt(group(Pattern.compile("Only (\\d+)% of GPU Memory is used"), dlprof.get("batch_size_detector")));

        List<Finding> findings = lint("mohanadodema-dlprof/root/dlprof_dldb.sqlite");
        // every DLProf detector that fired, except dataloader_detector's "No DALI ops detected" (a decision, see
        // dataloader-bound.md)
        assertEquals(Map.of("dlprof/amp-not-used", 1, "dlprof/no-iterations", 1, "dlprof/small-batch-size", 1,
                "dlprof/underutilized-gpu", 1), counts(findings), findings.toString());
        assertEquals(ops, (int) number(only(findings, "dlprof/amp-not-used"), "eligibleOps"));
        assertTrue(only(findings, "dlprof/underutilized-gpu").problem().contains("CPU has the highest non-GPU share, " + cpu + "%"));
        // DLProf prints the memory share truncated to a whole percent (2026635264 / 8589934592 = 23.59%)
        Finding batch = only(findings, "dlprof/small-batch-size");
        assertEquals(mem, (int) Math.floor(number(batch, "memoryUsedPct")), batch.evidence().toString());
        assertEquals(4, (int) number(batch, "suggestedFactor"), "DLProf: increase batch size by 4x");
    }

    @Test
    void rootCaptureOfTheSameModelGetsTheSameRules() throws Exception {
        // a different capture (batch size 1, no ReLU) of the same script: same three problems
        List<Finding> findings = lint("mohanadodema-dlprof/root/nsys_profile.sqlite");
        assertEquals(Map.of("dlprof/amp-not-used", 1, "dlprof/no-iterations", 1, "dlprof/underutilized-gpu", 1),
                counts(findings), findings.toString());
        assertTrue(only(findings, "dlprof/underutilized-gpu").problem().startsWith("GPU utilization 0.0%: CPU has the highest"));
    }

    @Test
    void kinetoResnet50SamplesShowTheDataLoaderBottleneckAndItsFix() throws Exception {
        // The PyTorch TensorBoard plugin's own sample pairs (three recordings, 2021 bare-array format to
        // the 1.9 profiler): the same ResNet-50 steps with DataLoader num_workers=0 and num_workers=4.
        // With 0 workers the trace spends 20-40% of the steps in enumerate(DataLoader) while no kernel
        // runs; with 4 workers about 1%. All run FP32 convolutions without tensor-core kernels.
        String[][] pairs = {
            {"kineto-tb-plugin/86791410/tb_plugin/samples/resnet50_profiler_api_num_workers_0/worker0.pt.trace.json.gz",
             "kineto-tb-plugin/86791410/tb_plugin/samples/resnet50_profiler_api_num_workers_4/worker0.pt.trace.json.gz"},
            {"kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_0/worker0.pt.trace.json.gz",
             "kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_4/worker0.pt.trace.json.gz"},
            {"kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
             "kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz"}};
        for (String[] pair : pairs) {
            List<Finding> w0 = lint(pair[0]);
            assertEquals(1, counts(w0).getOrDefault("dlprof/dataloader-bound", 0), pair[0] + ": " + w0);
            Finding dl = only(w0, "dlprof/dataloader-bound");
            assertTrue(number(dl, "dataloaderPct") > 15, dl.evidence().toString());
            assertTrue(dl.recommendation().contains("num_workers=0"), dl.recommendation());

            List<Finding> w4 = lint(pair[1]);
            assertEquals(0, counts(w4).getOrDefault("dlprof/dataloader-bound", 0), pair[1] + ": " + w4);
        }
        List<Finding> w0 = lint(pairs[0][0]);
        assertEquals(Map.of("dlprof/amp-not-used", 1, "dlprof/dataloader-bound", 1), counts(w0), w0.toString());
        List<Finding> w4 = lint(pairs[0][1]);
        assertEquals(Map.of("dlprof/amp-not-used", 1), counts(w4), w4.toString());
    }

    @Test
    void cutlassBenchmarkUsesOneOfFourGpusAndIdlesMostOfTheCapture() throws Exception {
        // sqlite3: SELECT deviceId, count(*), sum(end-start) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY deviceId
        //   -> 0|6|162000609 (memcpys also only on device 0); TARGET_INFO_GPU lists ids 0..3 (2x A100, 2x A40).
        // The capture spans 12.4 s, kernels 0.16 s: utilization 0.3% (< 50%), and GPUs 1, 2, 3 ran nothing.
        // No NVTX at all, so no op-level rule (AMP, iterations, emit_nvtx) can speak.
        List<Finding> findings = lint("cutlass-bench-nsys2023/report1.sqlite");
        assertEquals(Map.of("dlprof/underutilized-gpu", 2), counts(findings), findings.toString());
        assertEquals(List.of("gpu:unused", "profile"), findings.stream().map(f -> f.subject().ref()).sorted().toList());
        assertTrue(findings.stream().anyMatch(f -> f.problem().startsWith("3 of 4 GPUs are not being used (device ids 1 2 3)")),
                findings.toString());
    }

    @Test
    void cudaPerfSandboxRunsOneTinyKernel() throws Exception {
        // sqlite3: one kernel of 38912 ns and 3 memcpys (3.0 ms) in a 1.15 s capture: 0.0% utilization.
        // One GPU (RTX 3060), used; no NVTX.
        List<Finding> findings = lint("cuda-perf-sandbox-nsys2025/report1.sqlite");
        assertEquals(Map.of("dlprof/underutilized-gpu", 1), counts(findings), findings.toString());
        assertTrue(findings.get(0).problem().startsWith("GPU utilization 0.0%"), findings.get(0).problem());
    }

    @Test
    void uvmtorchCaptureWithoutGpuWorkGetsNoFinding() throws Exception {
        // sqlite3: no CUPTI_ACTIVITY_KIND_KERNEL table, 2 runtime rows (cuModuleGetLoadingMode,
        // cudaGetDeviceProperties), no NVTX. A PyTorch GPT-Neo run whose GPU work was not captured:
        // "GPU 0 unused" would blame the program for a capture problem (the reader warns instead).
        assertEquals(Map.of(), counts(lint("uvmtorch-nsys2025/report1.sqlite")));
    }

    @Test
    void emptyDlprofExportGetsNoFinding() throws Exception {
        // sqlite3 .tables: ProcessStreams StringIds TARGET_INFO_GPU TARGET_INFO_SESSION_START_TIME
        // TARGET_INFO_SYSTEM_ENV ThreadNames: nothing was traced.
        assertEquals(Map.of(), counts(lint("dynamicvit-dlprof-empty/nsys_profile.sqlite")));
    }

    @Test
    void llamaInferenceSplitsIntoItsNumberedTokenSteps() throws Exception {
        // sqlite3: SELECT text, count(*) FROM NVTX_EVENTS GROUP BY text -> layer_0..7_computation and
        // ensure_layer_0..7_weights x64 each, token_0..63_processing x1 each, filling layer_processing_simulation;
        // kernels: 1536 (18.6 ms) in a 2.17 s capture. The token_N_processing ranges are a numbered family that
        // tiles the run: 64 steps without any key node.
        ProfileFacts facts = ProfileReaders.discover().read(Corpus.file("llama3-inference-nsys2024/real_inference_simulation.sqlite"),
                ReadOptions.DEFAULT);
        assertEquals(IterationSummary.NUMBERED_RANGES, facts.iterationSummary().method());
        assertEquals("token_N_processing", facts.iterationSummary().keyNode());
        assertEquals(64, facts.iterationSummary().total());
        List<Finding> findings = lint("llama3-inference-nsys2024/real_inference_simulation.sqlite");
        assertEquals(Map.of("dlprof/bad-iteration-range", 1, "dlprof/underutilized-gpu", 1), counts(findings), findings.toString());
        // the first token's step holds the warm-up (152 ms against 10 ms): the steady window leaves it out and says so
        Finding range = only(findings, "dlprof/bad-iteration-range");
        assertEquals("warm-up-left-out", range.messageId(), range.problem());
        assertTrue(range.problem().contains("step 0 left out"), range.problem());
        assertEquals(1, (int) number(range, "aggStart"), range.evidence().toString());
        assertEquals(63, (int) number(range, "aggStop"), range.evidence().toString());
        assertTrue(number(range, "variationPct") < 5, range.evidence().toString());
        // every step, the warm-up included (--iter-start 0): the range varies and a steady window is proposed
        List<Finding> all = lint("llama3-inference-nsys2024/real_inference_simulation.sqlite", new ReadOptions(null, 0, 63));
        Finding varies = only(all, "dlprof/bad-iteration-range");
        assertEquals("varies", varies.messageId(), varies.problem());
        int start = (int) number(varies, "proposedStart");
        int stop = (int) number(varies, "proposedStop");
        assertTrue(start >= 1 && stop <= 63 && stop - start >= 50, varies.recommendation());
        assertTrue(number(varies, "proposedVariationPct") < 5, varies.evidence().toString());
        List<Finding> steady = lint("llama3-inference-nsys2024/real_inference_simulation.sqlite", new ReadOptions(null, start, stop));
        assertEquals(Map.of("dlprof/underutilized-gpu", 1), counts(steady), steady.toString());

        // DLProf's rule with an explicit key node still applies: 64 key-node instances -> 65 intervals
        ProfileFacts keyed = ProfileReaders.discover().read(Corpus.file("llama3-inference-nsys2024/real_inference_simulation.sqlite"),
                new ReadOptions("ensure_layer_0_weights", null, null));
        assertEquals(IterationSummary.USER_KEY_NODE, keyed.iterationSummary().method());
        assertEquals(65, keyed.iterationSummary().total());
    }
}
