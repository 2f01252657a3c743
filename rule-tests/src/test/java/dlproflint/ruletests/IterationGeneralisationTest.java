package dlproflint.ruletests;

import dlproflint.engine.LintEngine;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.Iteration;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.ProfileFacts;
import dlproflint.findings.Finding;
import dlproflint.testing.Corpus;
import dlproflint.testing.ProfileVariants;
import dlproflint.testing.SqliteVariant;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Generalisation (issue 11, item 7): for each reader, every corpus file with the iterations found (how
 * many, how, on which family), its ops, its GPUs and the findings; then variants of corpus files made
 * here (step markers removed, renamed or added) with their iterations and findings. The acceptance
 * criteria of issue 11 on iterations are the named tests below.
 */
class IterationGeneralisationTest {
    private static LintEngine engine;
    private static ProfileReaders readers;

    @TempDir
    Path dir;

    @BeforeAll
    static void load() throws Exception {
        engine = AllPacks.builtin();
        readers = AllPacks.readers();
    }

    /** What reading and linting one corpus file gives. */
    record Row(String profile, int iterations, String method, String keyNode, int ops, List<String> gpus, Set<String> findings) {
    }

    private static Row row(String profile, int iterations, String method, String keyNode, int ops, List<String> gpus,
                           Set<String> findings) {
        return new Row(profile, iterations, method, keyNode, ops, gpus, findings);
    }

    static final List<Row> NSYS = List.of(
            row("cuda-perf-sandbox-nsys2025/report1.sqlite",
                1, "none", null, 9, List.of("0 NVIDIA GeForce RTX 3060"),
                Set.of("dlprof/underutilized-gpu", "nsys/sync-memcpy")),
            row("cutlass-bench-nsys2023/report1.sqlite",
                1, "none", null, 8, List.of("0 NVIDIA A100-PCIE-40GB", "1 NVIDIA A100-PCIE-40GB", "2 NVIDIA A40", "3 NVIDIA A40"),
                Set.of("dlprof/underutilized-gpu", "nsys/sync-memcpy")),
            row("dynamicvit-dlprof-empty/nsys_profile.sqlite",
                1, "none", null, 0, List.of("0 NVIDIA RTX A2000 12GB"),
                Set.of()),
            row("llama3-inference-nsys2024/real_inference_simulation.sqlite",
                64, "numbered-ranges", "token_N_processing", 583, List.of("0 NVIDIA GeForce RTX 4060 Ti"),
                Set.of("dlprof/bad-iteration-range", "dlprof/underutilized-gpu", "nsys/gpu-low-utilization", "nsys/launch-bound", "nsys/sync-api")),
            row("mohanadodema-dlprof/root/nsys_profile.sqlite",
                1, "none", null, 27, List.of("0 NVIDIA GeForce RTX 2070 SUPER"),
                Set.of("dlprof/amp-not-used", "dlprof/no-iterations", "dlprof/underutilized-gpu", "nsys/pageable-async-memcpy", "nsys/sync-api")),
            row("mohanadodema-dlprof/w_Relu/nsys_profile.sqlite",
                1, "none", null, 36, List.of("0 NVIDIA GeForce RTX 2070 SUPER"),
                Set.of("dlprof/amp-not-used", "dlprof/no-iterations", "dlprof/underutilized-gpu", "nsys/pageable-async-memcpy", "nsys/sync-api")),
            row("uvmtorch-nsys2025/report1.sqlite",
                1, "none", null, 2, List.of("0 NVIDIA RTX A5000"),
                Set.of()));

    static final List<Row> KINETO = List.of(
            row("hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
                2, "step-markers", "ProfilerStep#N", 42, List.of("0 AMD Radeon Graphics", "1 AMD Radeon Graphics", "2 AMD Radeon Graphics", "3 AMD Radeon Graphics"),
                Set.of("dlprof/amp-not-used", "dlprof/underutilized-gpu", "nsys/precision-conversions")),
            row("hta/tests/data/call_stack/backward_thread.json",
                1, "step-markers", "ProfilerStep#N", 4, List.of("0 unknown GPU"),
                Set.of("dlprof/underutilized-gpu")),
            row("hta/tests/data/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
                1, "step-markers", "ProfilerStep#N", 1, List.of(),
                Set.of()),
            row("hta/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz",
                1, "none", null, 51, List.of("0 NVIDIA A100-PG509-200", "1 NVIDIA A100-PG509-200", "2 NVIDIA A100-PG509-200", "3 NVIDIA A100-PG509-200", "4 NVIDIA A100-PG509-200", "5 NVIDIA A100-PG509-200", "6 NVIDIA A100-PG509-200", "7 NVIDIA A100-PG509-200"),
                Set.of("dlprof/no-iterations", "dlprof/underutilized-gpu", "nsys/pageable-async-memcpy")),
            row("hta/tests/data/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz",
                1, "none", null, 2, List.of("0 NVIDIA A100-PG509-200", "1 NVIDIA A100-PG509-200", "2 NVIDIA A100-PG509-200", "3 NVIDIA A100-PG509-200", "4 NVIDIA A100-PG509-200", "5 NVIDIA A100-PG509-200", "6 NVIDIA A100-PG509-200", "7 NVIDIA A100-PG509-200"),
                Set.of("dlprof/amp-not-used", "dlprof/no-iterations", "dlprof/underutilized-gpu")),
            row("hta/tests/data/critical_path/cuda_event_sync/event_sync_trace.json.gz",
                1, "step-markers", "ProfilerStep#N", 12, List.of("0 NVIDIA A100-PG509-200", "1 NVIDIA A100-PG509-200", "2 NVIDIA A100-PG509-200", "3 NVIDIA A100-PG509-200", "4 NVIDIA A100-PG509-200", "5 NVIDIA A100-PG509-200", "6 NVIDIA A100-PG509-200", "7 NVIDIA A100-PG509-200"),
                Set.of("dlprof/underutilized-gpu", "nsys/pageable-async-memcpy")),
            row("hta/tests/data/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz",
                1, "none", null, 51, List.of("0 NVIDIA A100-PG509-200", "1 NVIDIA A100-PG509-200", "2 NVIDIA A100-PG509-200", "3 NVIDIA A100-PG509-200", "4 NVIDIA A100-PG509-200", "5 NVIDIA A100-PG509-200", "6 NVIDIA A100-PG509-200", "7 NVIDIA A100-PG509-200"),
                Set.of("dlprof/no-iterations", "dlprof/underutilized-gpu", "nsys/pageable-async-memcpy")),
            row("hta/tests/data/cupti_profiler/benchmark_result_924719_1679055439_trace.json.gz",
                1, "none", null, 37, List.of("0 NVIDIA A100-PG509-200", "1 NVIDIA A100-PG509-200", "2 NVIDIA A100-PG509-200", "3 NVIDIA A100-PG509-200", "4 NVIDIA A100-PG509-200", "5 NVIDIA A100-PG509-200", "6 NVIDIA A100-PG509-200", "7 NVIDIA A100-PG509-200"),
                Set.of("dlprof/no-iterations")),
            row("hta/tests/data/df_index_resolver/df_index_resolver.json.gz",
                5, "step-markers", "ProfilerStep#N", 80, List.of("0 Tesla V100-SXM2-32GB", "1 Tesla V100-SXM2-32GB"),
                Set.of("dlprof/small-batch-size")),
            row("hta/tests/data/distributed_info_unavailable/distributed_info_not_found.json.gz",
                1, "step-markers", "ProfilerStep#N", 100, List.of("0 NVIDIA A100-PG509-200", "1 NVIDIA A100-PG509-200", "2 NVIDIA A100-PG509-200", "3 NVIDIA A100-PG509-200", "4 NVIDIA A100-PG509-200", "5 NVIDIA A100-PG509-200", "6 NVIDIA A100-PG509-200", "7 NVIDIA A100-PG509-200"),
                Set.of()),
            row("hta/tests/data/execution_trace/benchmark_simple_add_trace.json.gz",
                1, "none", null, 14, List.of("0 NVIDIA A100-PG509-200", "1 NVIDIA A100-PG509-200", "2 NVIDIA A100-PG509-200", "3 NVIDIA A100-PG509-200", "4 NVIDIA A100-PG509-200", "5 NVIDIA A100-PG509-200", "6 NVIDIA A100-PG509-200", "7 NVIDIA A100-PG509-200"),
                Set.of("dlprof/no-iterations", "dlprof/underutilized-gpu")),
            row("hta/tests/data/nccl_parser_config/nccl_data.json.gz",
                3, "step-markers", "ProfilerStep#N", 89, List.of("0 NVIDIA A100-PG509-200", "1 NVIDIA A100-PG509-200", "2 NVIDIA A100-PG509-200", "3 NVIDIA A100-PG509-200", "4 NVIDIA A100-PG509-200", "5 NVIDIA A100-PG509-200", "6 NVIDIA A100-PG509-200", "7 NVIDIA A100-PG509-200"),
                Set.of("dlprof/amp-not-used", "dlprof/underutilized-gpu", "nsys/precision-conversions")),
            row("hta/tests/data/negative_queue_length_values_check/rank0.json.gz",
                5, "step-markers", "ProfilerStep#N", 180, List.of("0 NVIDIA A100-SXM4-80GB", "1 NVIDIA A100-SXM4-80GB", "2 NVIDIA A100-SXM4-80GB", "3 NVIDIA A100-SXM4-80GB", "4 NVIDIA A100-SXM4-80GB", "5 NVIDIA A100-SXM4-80GB", "6 NVIDIA A100-SXM4-80GB", "7 NVIDIA A100-SXM4-80GB"),
                Set.of("dlprof/bad-iteration-range", "dlprof/underutilized-gpu", "nsys/pageable-async-memcpy")),
            row("hta/tests/data/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
                5, "step-markers", "ProfilerStep#N", 89, List.of("0 Tesla V100-SXM2-32GB", "1 Tesla V100-SXM2-32GB", "2 Tesla V100-SXM2-32GB", "3 Tesla V100-SXM2-32GB", "4 Tesla V100-SXM2-32GB", "5 Tesla V100-SXM2-32GB", "6 Tesla V100-SXM2-32GB", "7 Tesla V100-SXM2-32GB"),
                Set.of("dlprof/amp-not-used", "dlprof/underutilized-gpu")),
            row("hta/tests/data/trace_compare/base/base.json.gz",
                2, "step-markers", "ProfilerStep#N", 5, List.of("1 unknown GPU"),
                Set.of("dlprof/underutilized-gpu")),
            row("hta/tests/data/trace_compare/test/test.json.gz",
                2, "step-markers", "ProfilerStep#N", 8, List.of("1 unknown GPU"),
                Set.of("dlprof/underutilized-gpu")),
            row("hta/tests/data/trace_diff/control/control.json.gz",
                6, "step-markers", "ProfilerStep#N", 233, List.of("0 NVIDIA A100-PG509-200", "1 NVIDIA A100-PG509-200", "2 NVIDIA A100-PG509-200", "3 NVIDIA A100-PG509-200", "4 NVIDIA A100-PG509-200", "5 NVIDIA A100-PG509-200", "6 NVIDIA A100-PG509-200", "7 NVIDIA A100-PG509-200"),
                Set.of("nsys/pageable-async-memcpy")),
            row("hta/tests/data/trace_diff/test/test.json.gz",
                6, "step-markers", "ProfilerStep#N", 171, List.of("0 Tesla V100-SXM2-16GB", "1 Tesla V100-SXM2-16GB"),
                Set.of("dlprof/bad-iteration-range", "nsys/pageable-async-memcpy")),
            row("hta/tests/data/trace_file_list/inference_rank_1.json.gz",
                1, "none", null, 3, List.of("0 unknown GPU"),
                Set.of("dlprof/underutilized-gpu", "nsys/precision-conversions")),
            row("hta/tests/data/trace_filter/sampled_rank-0.json.gz",
                2, "step-markers", "ProfilerStep#N", 221, List.of("0 unknown GPU"),
                Set.of("dlprof/underutilized-gpu", "nsys/pageable-async-memcpy")),
            row("hta/tests/data/trace_filter/sampled_rank-1.json.gz",
                2, "step-markers", "ProfilerStep#N", 206, List.of("1 unknown GPU"),
                Set.of("dlprof/underutilized-gpu", "nsys/pageable-async-memcpy")),
            row("hta/tests/data/triton_example/triton_example.json.gz",
                1, "step-markers", "ProfilerStep#N", 3, List.of("0 NVIDIA A100-PG509-200", "1 NVIDIA A100-PG509-200", "2 NVIDIA A100-PG509-200", "3 NVIDIA A100-PG509-200", "4 NVIDIA A100-PG509-200", "5 NVIDIA A100-PG509-200", "6 NVIDIA A100-PG509-200", "7 NVIDIA A100-PG509-200"),
                Set.of("dlprof/underutilized-gpu")),
            row("hta/tests/data/with_gpu_user_annotation/step_based_trace_2543932.json.gz",
                5, "inferred:optimizer-step", "Optimizer.step#SGD.step", 51, List.of("0 Quadro GP100", "1 Quadro GP100"),
                Set.of("dlprof/underutilized-gpu", "nsys/pageable-async-memcpy")),
            row("kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_0/worker0.pt.trace.json.gz",
                6, "step-markers", "ProfilerStep#N", 79, List.of("0 unknown GPU"),
                Set.of("dlprof/amp-not-used", "dlprof/dataloader-bound", "nsys/pageable-async-memcpy")),
            row("kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_4/worker0.pt.trace.json.gz",
                6, "step-markers", "ProfilerStep#N", 72, List.of("0 unknown GPU"),
                Set.of("dlprof/amp-not-used", "nsys/pageable-async-memcpy")),
            row("kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
                6, "step-markers", "ProfilerStep#N", 78, List.of("0 Tesla V100-DGXS-32GB", "1 Tesla V100-DGXS-32GB", "2 Tesla V100-DGXS-32GB", "3 Tesla V100-DGXS-32GB"),
                Set.of("dlprof/amp-not-used", "dlprof/dataloader-bound", "dlprof/underutilized-gpu", "nsys/pageable-async-memcpy")),
            row("kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz",
                6, "step-markers", "ProfilerStep#N", 71, List.of("0 Tesla V100-DGXS-32GB", "1 Tesla V100-DGXS-32GB", "2 Tesla V100-DGXS-32GB", "3 Tesla V100-DGXS-32GB"),
                Set.of("dlprof/amp-not-used", "dlprof/underutilized-gpu", "nsys/pageable-async-memcpy")),
            row("kineto-tb-plugin/790be856/tb_plugin/test/gpu_metrics_input.json",
                1, "step-markers", "ProfilerStep#N", 49, List.of("0 Tesla V100-DGXS-32GB", "1 Tesla V100-DGXS-32GB", "2 Tesla V100-DGXS-32GB", "3 Tesla V100-DGXS-32GB"),
                Set.of("dlprof/amp-not-used", "dlprof/underutilized-gpu", "nsys/pageable-async-memcpy")),
            row("kineto-tb-plugin/86791410/tb_plugin/samples/resnet50_profiler_api_num_workers_0/worker0.pt.trace.json.gz",
                6, "step-markers", "ProfilerStep#N", 78, List.of("0 unknown GPU"),
                Set.of("dlprof/amp-not-used", "dlprof/dataloader-bound", "nsys/pageable-async-memcpy")),
            row("kineto-tb-plugin/86791410/tb_plugin/samples/resnet50_profiler_api_num_workers_4/worker0.pt.trace.json.gz",
                6, "step-markers", "ProfilerStep#N", 70, List.of("0 unknown GPU"),
                Set.of("dlprof/amp-not-used", "nsys/pageable-async-memcpy")),
            // issue 24: host-bound H200 loops are judged without the profiler's own host cost (ProfilerOverhead): the
            // healthy GPT/MobileNet loops, FP16, the item-sync case and the TB-plugin ResNet with 0 workers lose
            // dlprof/underutilized-gpu (e.g. gpt_healthy 32.4% profiled -> 65.6% on the replayed 16.6 ms step)
            row("pytorch-h200-2026/fp8_gemm_4k.pt.trace.json.gz",
                3, "step-markers", "ProfilerStep#N", 7, List.of("0 NVIDIA H200"),
                Set.of()),
            row("pytorch-h200-2026/gpt_fp16_scaler.pt.trace.json.gz",
                4, "step-markers", "ProfilerStep#N", 114, List.of("0 NVIDIA H200"),
                Set.of("nsys/precision-conversions")),
            row("pytorch-h200-2026/gpt_fp32_tf32_off.pt.trace.json.gz",
                4, "step-markers", "ProfilerStep#N", 104, List.of("0 NVIDIA H200"),
                Set.of("dlprof/amp-not-used")),
            row("pytorch-h200-2026/gpt_healthy.pt.trace.json.gz",
                4, "step-markers", "ProfilerStep#N", 107, List.of("0 NVIDIA H200"),
                Set.of("dlprof/small-batch-size", "nsys/precision-conversions")),
            row("pytorch-h200-2026/gpt_healthy_b.pt.trace.json.gz",
                12, "step-markers", "ProfilerStep#N", 107, List.of("0 NVIDIA H200"),
                Set.of("nsys/precision-conversions")),
            row("pytorch-h200-2026/gpt_item_sync.pt.trace.json.gz",
                4, "step-markers", "ProfilerStep#N", 109, List.of("0 NVIDIA H200"),
                Set.of("nsys/precision-conversions")),
            row("pytorch-h200-2026/gpt_memory_full.pt.trace.json.gz",
                4, "step-markers", "ProfilerStep#N", 107, List.of("0 NVIDIA H200"),
                Set.of("dlprof/underutilized-gpu", "nsys/precision-conversions")),
            row("pytorch-h200-2026/gpt_no_step_markers.pt.trace.json.gz",
                6, "inferred:optimizer-step", "Optimizer.step#AdamW.step", 107, List.of("0 NVIDIA H200"),
                Set.of("nsys/precision-conversions")),
            row("pytorch-h200-2026/job_straggler_rank1/rank0.pt.trace.json.gz",
                4, "step-markers", "ProfilerStep#N", 96, List.of("0 NVIDIA H200"),
                Set.of("dlprof/underutilized-gpu", "nsys/precision-conversions")),
            row("pytorch-h200-2026/job_straggler_rank1/rank1.pt.trace.json.gz",
                4, "step-markers", "ProfilerStep#N", 96, List.of("0 NVIDIA H200"),
                Set.of("dlprof/underutilized-gpu", "nsys/precision-conversions")),
            row("pytorch-h200-2026/job_straggler_rank1/rank2.pt.trace.json.gz",
                4, "step-markers", "ProfilerStep#N", 96, List.of("0 NVIDIA H200"),
                Set.of("dlprof/underutilized-gpu", "nsys/precision-conversions")),
            row("pytorch-h200-2026/job_straggler_rank1/rank3.pt.trace.json.gz",
                4, "step-markers", "ProfilerStep#N", 96, List.of("0 NVIDIA H200"),
                Set.of("dlprof/underutilized-gpu", "nsys/precision-conversions")),
            row("pytorch-h200-2026/mobilenet_fp32_default.pt.trace.json.gz",
                4, "step-markers", "ProfilerStep#N", 96, List.of("0 NVIDIA H200"),
                Set.of("dlprof/amp-not-used")),
            row("pytorch-h200-2026/mobilenet_healthy.pt.trace.json.gz",
                4, "step-markers", "ProfilerStep#N", 99, List.of("0 NVIDIA H200"),
                Set.of()),
            row("pytorch-h200-2026/mobilenet_loader_nw0.pt.trace.json.gz",
                4, "step-markers", "ProfilerStep#N", 125, List.of("0 NVIDIA H200"),
                Set.of("dlprof/dataloader-bound", "dlprof/underutilized-gpu")),
            row("pytorch-h200-2026/mobilenet_loader_nw12.pt.trace.json.gz",
                4, "step-markers", "ProfilerStep#N", 100, List.of("0 NVIDIA H200"),
                Set.of("dlprof/underutilized-gpu")),
            row("pytorch-h200-2026/mobilenet_loader_unpinned.pt.trace.json.gz",
                4, "step-markers", "ProfilerStep#N", 101, List.of("0 NVIDIA H200"),
                Set.of("dlprof/underutilized-gpu", "nsys/pageable-async-memcpy")),
            row("tracelens/tests/traces/b200/eager_trace.json.gz",
                1, "none", null, 63, List.of("0 NVIDIA B200", "1 NVIDIA B200", "2 NVIDIA B200", "3 NVIDIA B200", "4 NVIDIA B200", "5 NVIDIA B200", "6 NVIDIA B200", "7 NVIDIA B200"),
                Set.of("dlprof/no-iterations", "dlprof/underutilized-gpu", "nsys/pageable-async-memcpy")),
            row("tracelens/tests/traces/h100/Falconsai_nsfw_image_detection__1016002.json.gz",
                1, "step-markers", "ProfilerStep#N", 30, List.of("0 NVIDIA H100 80GB HBM3"),
                Set.of("dlprof/small-batch-size", "dlprof/underutilized-gpu")),
            row("tracelens/tests/traces/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
                1, "step-markers", "ProfilerStep#N", 45, List.of("0 NVIDIA H100 80GB HBM3"),
                Set.of("dlprof/bad-tensor-shape", "dlprof/small-batch-size", "nsys/precision-conversions")),
            row("tracelens/tests/traces/h100/facebook_timesformer-base-finetuned-k400__1016002.json.gz",
                1, "step-markers", "ProfilerStep#N", 49, List.of("0 NVIDIA H100 80GB HBM3"),
                Set.of("dlprof/small-batch-size", "dlprof/underutilized-gpu", "nsys/pageable-async-memcpy")),
            row("tracelens/tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz",
                1, "step-markers", "ProfilerStep#N", 29, List.of("0 NVIDIA H100 80GB HBM3"),
                Set.of("dlprof/small-batch-size", "dlprof/underutilized-gpu")),
            row("tracelens/tests/traces/torch_compile_triton/trace.json.gz",
                1, "none", null, 18, List.of("2 AMD Instinct MI300X"),
                Set.of("dlprof/no-iterations")));

    // DLProf databases hold DLProf's own split: the reader discovers nothing, it reads iteration_list
    static final List<Row> DLPROF_DB = List.of(
            row("dlprof-kakack-dlprofer/dlprofviewer/dlproftool/dlprof_dldb.sqlite",
                1, "none", "global_step", 13, List.of("0 A100-SXM4-40GB", "1 A100-SXM4-40GB", "2 A100-SXM4-40GB", "3 A100-SXM4-40GB", "4 A100-SXM4-40GB", "5 A100-SXM4-40GB", "6 A100-SXM4-40GB", "7 A100-SXM4-40GB"),
                Set.of("dlprof/amp-not-used", "dlprof/no-iterations", "dlprof/small-batch-size", "dlprof/underutilized-gpu", "dlprof/xla-not-enabled")),
            row("mohanadodema-dlprof/root/dlprof_dldb.sqlite",
                1, "none", null, 32, List.of("0 NVIDIA GeForce RTX 2070 SUPER"),
                Set.of("dlprof/amp-not-used", "dlprof/no-iterations", "dlprof/small-batch-size", "dlprof/underutilized-gpu")),
            row("mohanadodema-dlprof/root/dlprof_dldb_1.sqlite",
                1, "none", null, 32, List.of("0 NVIDIA GeForce RTX 2070 SUPER"),
                Set.of("dlprof/amp-not-used", "dlprof/no-iterations", "dlprof/underutilized-gpu")),
            row("mohanadodema-dlprof/w_Relu/dlprof_dldb_1.sqlite",
                1, "none", null, 36, List.of("0 NVIDIA GeForce RTX 2070 SUPER"),
                Set.of("dlprof/amp-not-used", "dlprof/no-iterations", "dlprof/underutilized-gpu")),
            row("mohanadodema-dlprof/w_Relu/dlprof_dldb_7.sqlite",
                1, "none", null, 36, List.of("0 NVIDIA GeForce RTX 2070 SUPER"),
                Set.of("dlprof/amp-not-used", "dlprof/no-iterations", "dlprof/underutilized-gpu")));

    private static final Map<String, List<Row>> BY_FORMAT = Map.of("nsys-sqlite", NSYS, "kineto", KINETO, "dlprof-db", DLPROF_DB);

    @TestFactory
    Stream<DynamicTest> everyCorpusFileOfEveryReader() {
        List<DynamicTest> tests = new ArrayList<>();
        BY_FORMAT.forEach((format, rows) -> rows.forEach(r -> tests.add(DynamicTest.dynamicTest(format + " " + r.profile(), () -> {
            ProfileFacts f = readers.read(Corpus.file(r.profile()), ReadOptions.DEFAULT);
            assertEquals(format, f.profile().format());
            IterationSummary s = f.iterationSummary();
            assertEquals(r.iterations(), s.total(), "iterations");
            assertEquals(r.iterations(), f.iterations().size(), "iteration facts");
            assertEquals(r.method(), s.method(), "how the iterations were found");
            assertEquals(r.keyNode(), s.keyNode(), "key node / step family");
            assertEquals(!IterationSummary.NONE.equals(r.method()), s.keyNodeFound());
            assertEquals(r.ops(), f.ops().size(), "ops");
            assertEquals(r.gpus().size(), f.gpus().size(), "GPUs " + f.gpus());
            assertEquals(r.gpus(), f.gpus().stream().map(g -> g.deviceId() + " " + g.name()).toList(), "GPUs");
            Set<String> rules = new TreeSet<>();
            // the pytorch pack's findings on every corpus file, with their numbers, are PyTorchPackCorpusTest's rows
            for (Finding x : engine.lint(f)) if (!x.ruleId().startsWith("pytorch/")) rules.add(x.ruleId());
            assertEquals(new TreeSet<>(r.findings()), rules, "findings");
        }))));
        tests.add(DynamicTest.dynamicTest("every corpus profile is in exactly one table", () -> {
            List<String> listed = new ArrayList<>();
            BY_FORMAT.values().forEach(rows -> rows.forEach(r -> listed.add(r.profile())));
            List<String> all = Corpus.profiles();
            if (all.isEmpty()) return;
            assertEquals(new TreeSet<>(all), new TreeSet<>(listed), "add a row for a new corpus file");
            assertEquals(listed.size(), new TreeSet<>(listed).size(), "a file listed twice");
        }));
        return tests.stream();
    }

    // ---------------------------------------------------------------- acceptance: Kineto without ProfilerStep

    private static boolean step(String name) {
        return name.startsWith("ProfilerStep#");
    }

    /**
     * Every corpus trace with a DataLoader call per step, without its ProfilerStep annotations (what the
     * legacy torch.autograd.profiler API records), still gets its iterations from the DataLoader calls,
     * and the TB plugin's num_workers=0 traces (and only they) are data-loader bound, per inferred step.
     */
    /** Every Kineto trace of the corpus with one DataLoader call per ProfilerStep (six TB-plugin samples, two HTA recsys ranks, the three H200 MobileNet DataLoader cases). */
    static final List<String> DATALOADER_PER_STEP = List.of(
            "hta/tests/data/trace_diff/control/control.json.gz",
            "hta/tests/data/trace_diff/test/test.json.gz",
            "kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_0/worker0.pt.trace.json.gz",
            "kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_4/worker0.pt.trace.json.gz",
            "kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
            "kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz",
            "kineto-tb-plugin/86791410/tb_plugin/samples/resnet50_profiler_api_num_workers_0/worker0.pt.trace.json.gz",
            "kineto-tb-plugin/86791410/tb_plugin/samples/resnet50_profiler_api_num_workers_4/worker0.pt.trace.json.gz",
            "pytorch-h200-2026/mobilenet_loader_nw0.pt.trace.json.gz",
            "pytorch-h200-2026/mobilenet_loader_nw12.pt.trace.json.gz",
            "pytorch-h200-2026/mobilenet_loader_unpinned.pt.trace.json.gz");

    @Test
    void theDataLoaderListHoldsEveryCorpusTraceWithADataLoaderCallPerStep() throws Exception {
        List<String> found = new ArrayList<>();
        for (Row r : KINETO) {
            ProfileFacts f = readers.read(Corpus.file(r.profile()), ReadOptions.DEFAULT);
            if (f.dataLoader() != null && f.iterationSummary().total() >= 2 && f.dataLoader().calls() == f.iterationSummary().total()) {
                found.add(r.profile());
            }
        }
        assertEquals(DATALOADER_PER_STEP, found.stream().sorted().toList());
    }

    static Stream<String> dataLoaderPerStep() {
        return DATALOADER_PER_STEP.stream();
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.MethodSource("dataLoaderPerStep")
    void tracesWithoutProfilerStepsAreSplitByTheirDataLoaderCalls(String rel) throws Exception {
        Path original = Corpus.file(rel);
        JsonNode dom = ProfileVariants.readTrace(original);
        List<double[]> loads = ProfileVariants.cpuEvents(dom, n -> n.startsWith("enumerate(DataLoader)#"));
        int steps = ProfileVariants.cpuEvents(dom, IterationGeneralisationTest::step).size();
        assertEquals(steps, loads.size(), "one DataLoader __next__ per step");
        Path bare = ProfileVariants.kineto(original, dir, "no-profiler-steps", ProfileVariants.without(IterationGeneralisationTest::step));

        ProfileFacts marked = readers.read(original, ReadOptions.DEFAULT);
        ProfileFacts f = readers.read(bare, ReadOptions.DEFAULT);
        assertEquals(IterationSummary.INFERRED_DATALOADER, f.iterationSummary().method(), rel);
        assertEquals(steps, f.iterationSummary().total());
        for (int i = 0; i < steps; i++) {
            long start = f.iterations().get(i).startNs();
            assertEquals(Math.round(loads.get(i)[0] * 1000), start, 1000, "step " + i + " starts with its DataLoader call");
            Iteration truth = marked.iterations().get(i);
            assertTrue(start >= truth.startNs() && start < truth.endNs(), "inferred step " + i + " lies in ProfilerStep " + i);
        }
        boolean single = rel.contains("num_workers_0") || rel.contains("loader_nw0");
        List<Finding> findings = engine.lint(f).stream().filter(x -> x.ruleId().equals("dlprof/dataloader-bound")).toList();
        assertEquals(single ? 1 : 0, findings.size(), rel + " dataloader-bound");
        assertEquals(single ? 1 : 0, engine.lint(marked).stream().filter(x -> x.ruleId().equals("dlprof/dataloader-bound")).count(),
                rel + " dataloader-bound with the markers");
        if (single) {
            Finding d = findings.get(0);
            assertTrue(d.problem().contains(steps + " steps, inferred from DataLoader calls enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"),
                    d.problem());
            assertTrue(d.recommendation().contains("num_workers=0"), d.recommendation());
        }
    }

    // ---------------------------------------------------------------- acceptance: nsys with ProfilerStep ranges

    private static final String LLAMA = "llama3-inference-nsys2024/real_inference_simulation.sqlite";

    /**
     * The llama3 export with a {@code ProfilerStep#N} NVTX range (a registered string, as nsys stores them)
     * around each of its 64 token steps splits into exactly those steps with no key node given; the same
     * export without them splits into its own numbered token ranges; without those as well, it says why not.
     */
    @Test
    void nsysExportWithProfilerStepRangesSplitsIntoThemAndWithoutThemSaysHowOrWhyNot() throws Exception {
        Path marked = SqliteVariant.of(Corpus.file(LLAMA), dir, "profiler-steps");
        List<long[]> windows = ProfileVariants.wrapRanges(marked, "token_%_processing",
                t -> "ProfilerStep#" + t.replaceAll("\\D", ""), true);
        ProfileFacts m = readers.read(marked, ReadOptions.DEFAULT);
        assertEquals(IterationSummary.STEP_MARKERS, m.iterationSummary().method());
        assertEquals(windows.size(), m.iterationSummary().total());
        for (int i = 0; i < windows.size(); i++) {
            assertEquals(windows.get(i)[0], m.iterations().get(i).startNs());
            assertEquals(windows.get(i)[1], m.iterations().get(i).endNs());
        }
        List<Finding> mf = engine.lint(m);
        assertTrue(mf.stream().noneMatch(f -> f.ruleId().equals("dlprof/no-iterations")), mf.toString());
        // the steady window leaves out step 0 (152 ms against a median of 10 ms): 63 steps aggregated
        assertTrue(mf.stream().anyMatch(f -> f.problem().contains("63 steps, step markers ProfilerStep#N")), mf.toString());

        ProfileFacts own = readers.read(Corpus.file(LLAMA), ReadOptions.DEFAULT);
        assertEquals(IterationSummary.NUMBERED_RANGES, own.iterationSummary().method());
        assertEquals(64, own.iterationSummary().total());

        Path none = SqliteVariant.of(Corpus.file(LLAMA), dir, "no-step-ranges",
                "DELETE FROM NVTX_EVENTS WHERE text LIKE 'token_%_processing'");
        ProfileFacts n = readers.read(none, ReadOptions.DEFAULT);
        assertEquals(IterationSummary.NONE, n.iterationSummary().method());
        Finding why = engine.lint(n).stream().filter(f -> f.ruleId().equals("dlprof/no-iterations")).findFirst().orElseThrow();
        assertTrue(why.problem().contains("no key node was given and no step markers or regularly repeating step were found; "
                + "closest step boundaries, by how evenly they split the run: '"), why.problem());
        assertTrue(n.warnings().stream().anyMatch(w -> w.code().equals("no-iterations")), n.warnings().toString());
        assertFalse(why.recommendation().isBlank());
    }
}
