package dlproflint.ruletests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dlproflint.engine.LintEngine;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ExtractionWarning;
import dlproflint.facts.ProfileFacts;
import dlproflint.findings.Finding;
import dlproflint.testing.Corpus;
import dlproflint.testing.ProfileVariants;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dlprof/cudnn-benchmark-off} on a Kineto trace, where the setting is not recorded and only each convolution
 * call's kernels can tell: the H200 MobileNetV3 in FP32 with PyTorch's defaults (benchmark off), captured from step 3
 * on, and variants of it. A capture after the shapes' first calls looks the same with benchmark on or off, so it is
 * not judged and the report says so; renumbered to start at the loop's first step, its calls' one-to-four kernels are
 * the heuristics' choice and the rule fires; with one call launching a search's worth of candidate kernels, benchmark
 * was on.
 */
class CudnnBenchmarkVariantsTest {
    private static final String MOBILENET = "pytorch-h200-2026/mobilenet_fp32_default.pt.trace.json.gz";
    private static final String RULE = "dlprof/cudnn-benchmark-off";
    private static LintEngine engine;
    private static ProfileReaders readers;

    @TempDir
    static Path dir;

    @BeforeAll
    static void load() throws Exception {
        engine = AllPacks.builtin();
        readers = AllPacks.readers();
    }

    private static boolean unknownWarning(ProfileFacts f) {
        return f.warnings().stream().map(ExtractionWarning::code).anyMatch("cudnn-benchmark-unknown"::equals);
    }

    private static Optional<Finding> rule(ProfileFacts f) {
        return engine.lint(f).stream().filter(x -> x.ruleId().equals(RULE)).findFirst();
    }

    /** ProfilerStep#3..#6 become #0..#3: the capture holds the loop's first step. */
    private static List<JsonNode> fromStepZero(List<JsonNode> events) {
        return ProfileVariants.renamed(n -> n.startsWith("ProfilerStep#"),
                n -> "ProfilerStep#" + (Integer.parseInt(n.substring("ProfilerStep#".length())) - 3)).apply(events);
    }

    @Test
    void aCaptureAfterTheFirstStepIsNotJudgedAndTheReportSaysSo() throws Exception {
        ProfileFacts f = readers.read(Corpus.file(MOBILENET), ReadOptions.DEFAULT);
        assertTrue(f.convolutionCalls().calls() > 100, "convolution calls: " + f.convolutionCalls());
        assertTrue(f.convolutionCalls().maxDistinctKernels() <= 4, "no call searched: " + f.convolutionCalls());
        assertEquals(3, f.convolutionCalls().firstStepNumber());
        assertTrue(unknownWarning(f));
        assertFalse(rule(f).isPresent());
    }

    @Test
    void fromTheFirstStepCallsWithoutASearchMeanBenchmarkOff() throws Exception {
        Path p = ProfileVariants.kineto(Corpus.file(MOBILENET), dir, "from-step-0", CudnnBenchmarkVariantsTest::fromStepZero);
        ProfileFacts f = readers.read(p, ReadOptions.DEFAULT);
        assertEquals(0, f.convolutionCalls().firstStepNumber());
        assertFalse(unknownWarning(f));
        Finding x = rule(f).orElseThrow();
        assertEquals("no-search-first-step", x.messageId());
        assertTrue(x.impact() != null && x.impact().lostNs() > 0, "costed: " + x.impact());
    }

    @Test
    void oneCallLaunchingASearchsCandidatesMeansBenchmarkOn() throws Exception {
        Path p = ProfileVariants.kineto(Corpus.file(MOBILENET), dir, "search-in-step-0", events -> {
            List<JsonNode> out = new ArrayList<>(fromStepZero(events));
            // the first cudnn_convolution call's first kernel gets ten more candidates, as cuDNN's search launches
            JsonNode call = null;
            for (JsonNode e : events) {
                if (!"aten::cudnn_convolution".equals(e.path("name").asText())) continue;
                if (call == null || e.path("ts").asDouble() < call.path("ts").asDouble()) call = e;
            }
            long ext = call == null ? -1 : call.path("args").path("External id").asLong(-1);
            JsonNode first = null;
            for (JsonNode e : events) {
                if ("kernel".equals(e.path("cat").asText()) && e.path("args").path("External id").asLong(-2) == ext) {
                    if (first == null || e.path("ts").asDouble() < first.path("ts").asDouble()) first = e;
                }
            }
            for (int i = 0; first != null && i < 10; i++) {
                ObjectNode candidate = ((ObjectNode) first).deepCopy();
                candidate.put("name", "cudnn_search_candidate_" + i);
                candidate.put("dur", 1);
                out.add(candidate);
            }
            return out;
        });
        ProfileFacts f = readers.read(p, ReadOptions.DEFAULT);
        assertTrue(f.convolutionCalls().maxDistinctKernels() >= 11, "the search's call: " + f.convolutionCalls());
        assertFalse(unknownWarning(f));
        assertFalse(rule(f).isPresent());
    }
}
