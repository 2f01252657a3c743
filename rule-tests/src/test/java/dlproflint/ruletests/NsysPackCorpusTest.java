package dlproflint.ruletests;

import dlproflint.findings.Finding;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The nsys pack on every Nsight Systems export of the corpus: the exact multiset of nsys/* findings per
 * file, and the numbers that justify them. Each expectation was checked by hand against the database
 * with sqlite3 (the comments give the query results).
 */
class NsysPackCorpusTest {
    /** A finding we expect: rule id and a piece of its message with the numbers. */
    private record Expected(String rule, String messageContains) {
    }

    private static final Map<String, List<Expected>> EXPECTED = Map.of(
            // 512 cudaDeviceSynchronize rows in CUPTI_ACTIVITY_KIND_RUNTIME, sum(end-start) = 8,742,712 ns, 64 per
            // layer_N_computation range; one kernel stream whose 679 ms span is 2.8% busy; 1,024 of 1,536
            // kernels run shorter than their cudaLaunchKernel. Largest GPU gap 46 ms (< 500 ms: no gpu-gaps).
            "llama3-inference-nsys2024/real_inference_simulation.sqlite", List.of(
                    new Expected("nsys/gpu-low-utilization", "30 of 30 chunks of GPU 0's active span"),
                    new Expected("nsys/launch-bound", "of 1512 kernel launches"),
                    new Expected("nsys/sync-api", "512 cudaDeviceSynchronize calls blocked the host for 8.7 ms")),
            // 11 MEMCPY rows with copyKind 1 (HtoD), srcKind 0 (pageable) launched by cudaMemcpyAsync_v3020,
            // sum(bytes) = 259,160; 11 cudaStreamSynchronize calls. The 2 synchronous cudaMemcpy copies are
            // host-to-device copies of at most 64 KB (excluded, as nsys does).
            "mohanadodema-dlprof/root/nsys_profile.sqlite", List.of(
                    new Expected("nsys/pageable-async-memcpy", "11 cudaMemcpyAsync HtoD copies use pageable memory (259,160 bytes"),
                    new Expected("nsys/sync-api", "11 cudaStreamSynchronize calls")),
            // same model, other capture: 11 pageable async HtoD copies of 640,088 bytes in all
            "mohanadodema-dlprof/w_Relu/nsys_profile.sqlite", List.of(
                    new Expected("nsys/pageable-async-memcpy", "11 cudaMemcpyAsync HtoD copies use pageable memory (640,088 bytes"),
                    new Expected("nsys/sync-api", "11 cudaStreamSynchronize calls")),
            // CUTLASS benchmark: 3 synchronous cudaMemcpy HtoD (1,275,068,416 bytes) and 1 DtoH (805,306,368 bytes)
            "cutlass-bench-nsys2023/report1.sqlite", List.of(
                    new Expected("nsys/sync-memcpy", "3 synchronous cudaMemcpy HtoD copies block the host (1.28 GB"),
                    new Expected("nsys/sync-memcpy", "1 synchronous cudaMemcpy DtoH copies block the host (805.3 MB")),
            // 2 synchronous 4 MiB HtoD copies and one DtoH; the GPU is active for 5.3 ms only (< minSpanMs: not judged)
            "cuda-perf-sandbox-nsys2025/report1.sqlite", List.of(
                    new Expected("nsys/sync-memcpy", "2 synchronous cudaMemcpy HtoD copies block the host (8.4 MB"),
                    new Expected("nsys/sync-memcpy", "1 synchronous cudaMemcpy DtoH copies block the host (4.2 MB")),
            // 2 CUDA API rows, no GPU activity: nothing to say
            "uvmtorch-nsys2025/report1.sqlite", List.of(),
            // no CUDA and no NVTX tables at all
            "dynamicvit-dlprof-empty/nsys_profile.sqlite", List.of());

    @TestFactory
    Stream<DynamicTest> nsysFindingsPerCorpusFile() {
        return EXPECTED.keySet().stream().sorted().map(rel -> DynamicTest.dynamicTest(rel, () -> {
            List<Finding> nsys = AllPacks.engine()
                    .lint(ProfileReaders.discover().read(Corpus.file(rel), ReadOptions.DEFAULT)).stream()
                    .filter(f -> f.ruleId().startsWith("nsys/")).toList();
            List<Expected> expected = EXPECTED.get(rel);
            assertEquals(expected.size(), nsys.size(), rel + ": " + nsys.stream().map(f -> f.ruleId() + ": " + f.problem()).toList());
            for (Expected e : expected) {
                assertTrue(nsys.stream().anyMatch(f -> f.ruleId().equals(e.rule()) && f.problem().contains(e.messageContains())),
                        rel + ": expected " + e + " in " + nsys.stream().map(Finding::problem).toList());
            }
        }));
    }
}
