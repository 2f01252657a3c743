package dlproflint.extract.kineto;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.DataLoaderStat;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.KernelFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads every Kineto trace of the corpus through content-based detection and checks the facts against
 * an independent DOM parse of the same file (kernel count, steps, GPUs), plus the labelled DataLoader pair.
 */
class KinetoCorpusTest {
    private static final String[] TRACES = {
        "kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_0/worker0.pt.trace.json.gz",
        "kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_4/worker0.pt.trace.json.gz",
        "kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
        "kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz",
        "kineto-tb-plugin/790be856/tb_plugin/test/gpu_metrics_input.json",
        "kineto-tb-plugin/86791410/tb_plugin/samples/resnet50_profiler_api_num_workers_0/worker0.pt.trace.json.gz",
        "kineto-tb-plugin/86791410/tb_plugin/samples/resnet50_profiler_api_num_workers_4/worker0.pt.trace.json.gz",
        "hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
        "hta/tests/data/call_stack/backward_thread.json",
        "hta/tests/data/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
        "hta/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz",
        "hta/tests/data/critical_path/cuda_event_sync/event_sync_trace.json.gz",
        "hta/tests/data/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz",
        "hta/tests/data/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz",
        "hta/tests/data/cupti_profiler/benchmark_result_924719_1679055439_trace.json.gz",
        "hta/tests/data/df_index_resolver/df_index_resolver.json.gz",
        "hta/tests/data/distributed_info_unavailable/distributed_info_not_found.json.gz",
        "hta/tests/data/execution_trace/benchmark_simple_add_trace.json.gz",
        "hta/tests/data/nccl_parser_config/nccl_data.json.gz",
        "hta/tests/data/negative_queue_length_values_check/rank0.json.gz",
        "hta/tests/data/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
        "hta/tests/data/trace_compare/base/base.json.gz",
        "hta/tests/data/trace_compare/test/test.json.gz",
        "hta/tests/data/trace_diff/control/control.json.gz",
        "hta/tests/data/trace_diff/test/test.json.gz",
        "hta/tests/data/trace_file_list/inference_rank_1.json.gz",
        "hta/tests/data/trace_filter/sampled_rank-0.json.gz",
        "hta/tests/data/trace_filter/sampled_rank-1.json.gz",
        "hta/tests/data/triton_example/triton_example.json.gz",
        "hta/tests/data/with_gpu_user_annotation/step_based_trace_2543932.json.gz",
        "tracelens/tests/traces/b200/eager_trace.json.gz",
        "tracelens/tests/traces/h100/Falconsai_nsfw_image_detection__1016002.json.gz",
        "tracelens/tests/traces/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
        "tracelens/tests/traces/h100/facebook_timesformer-base-finetuned-k400__1016002.json.gz",
        "tracelens/tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz",
        "tracelens/tests/traces/torch_compile_triton/trace.json.gz",
    };

    private static final ObjectMapper DOM = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> everyCorpusTraceMatchesAnIndependentDomParse() {
        return Stream.of(TRACES).map(rel -> DynamicTest.dynamicTest(rel, () -> {
            Path file = Corpus.file(rel);
            ProfileFacts facts = ProfileReaders.discover().read(file, ReadOptions.DEFAULT);
            assertEquals("kineto", facts.profile().format());
            Expected exp = Expected.of(file);
            // every kernel launched in the capture belongs to exactly one step (issue 23): those below the first launch
            // call's correlation id ran work of steps before the capture; the facts count the aggregated steps'
            long inSteps = facts.iterations().stream().mapToLong(dlproflint.facts.Iteration::kernelCount).sum();
            assertEquals(exp.kernels - exp.preCapture, inSteps, "kernels launched in the capture, over all steps");
            long kernels = facts.kernels().stream().mapToLong(KernelFact::calls).sum();
            long aggregated = facts.iterations().stream().filter(dlproflint.facts.Iteration::aggregated)
                    .mapToLong(dlproflint.facts.Iteration::kernelCount).sum();
            assertEquals(aggregated, kernels, "kernel launches of the aggregated steps");
            int steps = IterationSummary.STEP_MARKERS.equals(facts.iterationSummary().method()) ? facts.iterationSummary().total() : 0;
            assertEquals(exp.steps, steps, "ProfilerStep#N iterations");
            if (exp.devices > 0) assertEquals(exp.devices, facts.gpus().size(), "GPUs from deviceProperties");
            assertTrue(facts.breakdown().wallNs() >= 0);
            double sum = facts.breakdown().tcKernelPct() + facts.breakdown().nonTcKernelPct() + facts.breakdown().memoryPct()
                    + facts.breakdown().dataloaderPct() + facts.breakdown().ioPct() + facts.breakdown().cpuPct()
                    + facts.breakdown().otherPct();
            if (facts.breakdown().wallNs() > 0) assertEquals(100.0, sum, 0.01, "flattened breakdown sums to 100%");
            // per-iteration kernel rows itemise every launch of each aggregated iteration
            java.util.Map<Integer, Long> calls = new java.util.HashMap<>();
            facts.iterationKernels().forEach(ik -> calls.merge(ik.iteration(), ik.calls(), Long::sum));
            for (dlproflint.facts.Iteration it : facts.iterations()) {
                long expected = it.aggregated() ? it.kernelCount() : 0;
                assertEquals(expected, calls.getOrDefault(it.index(), 0L), "kernel rows of iteration " + it.index());
            }
        }));
    }

    /** The TensorBoard plugin's labelled pair: num_workers=0 is DataLoader-bound, num_workers=4 is not. */
    @Test
    void dataLoaderShareSeparatesTheNumWorkersPairs() throws ProfileException {
        for (String rel : TRACES) {
            if (!rel.contains("num_workers_")) continue;
            ProfileFacts facts = ProfileReaders.discover().read(Corpus.file(rel), ReadOptions.DEFAULT);
            DataLoaderStat dl = java.util.Objects.requireNonNull(facts.dataLoader(), rel + ": no DataLoader stat");
            boolean single = rel.contains("num_workers_0");
            assertEquals(single ? Integer.valueOf(0) : Integer.valueOf(-1), dl.workers(), rel);
            assertEquals(6, dl.calls(), rel);
            if (single) {
                assertTrue(dl.inStepsPct() > 20, rel + " DataLoader share " + dl.inStepsPct());
                assertTrue(facts.breakdown().dataloaderPct() > 10, rel + " breakdown " + facts.breakdown());
            } else {
                assertTrue(dl.inStepsPct() < 5, rel + " DataLoader share " + dl.inStepsPct());
                assertTrue(facts.breakdown().dataloaderPct() < 5, rel + " breakdown " + facts.breakdown());
            }
        }
    }

    @Test
    void distributedTraceRecordsRankWorldSizeAndCollectives() throws ProfileException {
        ProfileFacts facts = ProfileReaders.discover().read(
                Corpus.file("hta/tests/data/nccl_parser_config/nccl_data.json.gz"), ReadOptions.DEFAULT);
        assertEquals(0, facts.system().distributedRank());
        assertEquals(2, facts.system().worldSize());
        assertEquals("NVIDIA A100-PG509-200", facts.gpus().get(0).name());
        assertEquals(8, facts.gpus().get(0).computeMajor());
        assertTrue(facts.collectives() != null && facts.collectives().kernels() > 0);
        assertTrue(facts.kernels().stream().anyMatch(KernelFact::usesTc), "A100 cuDNN xmma kernels are tensor-core kernels");
    }

    @Test
    void gpuMemoryPeakComesFromMemoryEvents() throws ProfileException {
        ProfileFacts facts = ProfileReaders.discover().read(
                Corpus.file("tracelens/tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz"), ReadOptions.DEFAULT);
        assertEquals("NVIDIA H100 80GB HBM3", facts.gpus().get(0).name());
        assertTrue(facts.gpus().get(0).usedMemoryBytes() > 0);
        assertTrue(facts.gpus().get(0).memoryUsedPct() < 5, "a small BERT uses a sliver of 80 GB");
        assertFalse(facts.ops().isEmpty());
        assertTrue(facts.ops().stream().anyMatch(o -> "bfloat16".equals(o.dataType())), "bf16 model: Input type c10::BFloat16");
    }

    @Test
    void userKeyNodeSplitsIterationsAtItsStopTimes() throws ProfileException {
        Path file = Corpus.file("kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_4/worker0.pt.trace.json.gz");
        ProfileFacts facts = ProfileReaders.discover().read(file, new ReadOptions("Optimizer.step#SGD.step", 1, 3));
        // six optimizer steps: N stops give N+1 intervals (DLProf's key-node rule)
        assertTrue(facts.iterationSummary().keyNodeFound());
        assertEquals(7, facts.iterationSummary().total());
        assertEquals(3, facts.iterationSummary().aggregated());
        assertEquals(3, facts.iterations().stream().filter(i -> i.aggregated()).count());
    }

    /**
     * Counts taken with a plain DOM parse, independent of the streaming reader; {@code preCapture}: kernels whose
     * correlation id lies below every launch call's of the trace (launched before the capture began).
     */
    private record Expected(long kernels, long preCapture, int steps, int devices) {
        static Expected of(Path file) throws IOException {
            JsonNode root;
            try (InputStream in = open(file)) {
                root = DOM.readTree(in);
            }
            JsonNode events = root.isArray() ? root : root.path("traceEvents");
            long kernels = 0;
            long firstLaunch = Long.MAX_VALUE;
            List<Long> kernelCorrelations = new ArrayList<>();
            List<String> steps = new ArrayList<>();
            for (JsonNode e : events) {
                String cat = e.path("cat").asText("").toLowerCase(Locale.ROOT);
                String ph = e.path("ph").asText("");
                if (!"X".equals(ph)) continue;
                JsonNode corr = e.path("args").path("correlation");
                if (cat.equals("kernel")) {
                    kernels++;
                    if (corr.isIntegralNumber() && corr.canConvertToLong()) kernelCorrelations.add(corr.asLong());
                }
                if ((cat.equals("cuda_runtime") || cat.equals("cuda_driver") || cat.equals("runtime"))
                        && corr.isIntegralNumber() && corr.canConvertToLong() && corr.asLong() != 0) {
                    firstLaunch = Math.min(firstLaunch, corr.asLong());
                }
                String name = e.path("name").asText("");
                if ((cat.equals("user_annotation") || cat.equals("operator") || cat.equals("cpu_op"))
                        && name.matches("ProfilerStep#\\d+")) steps.add(name);
            }
            JsonNode dev = root.isObject() ? (root.has("deviceProperties") ? root.get("deviceProperties") : root.path("computeProperties")) : null;
            long first = firstLaunch;
            long preCapture = first == Long.MAX_VALUE ? 0 : kernelCorrelations.stream().filter(c -> c < first).count();
            return new Expected(kernels, preCapture, steps.size(), dev != null && dev.isArray() ? dev.size() : 0);
        }

        private static InputStream open(Path file) throws IOException {
            InputStream in = Files.newInputStream(file);
            byte[] head = in.readNBytes(2);
            in.close();
            InputStream raw = Files.newInputStream(file);
            return head.length == 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b ? new GZIPInputStream(raw) : raw;
        }
    }
}
