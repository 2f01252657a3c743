package dlproflint.extract.kineto;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ExtractionWarning;
import dlproflint.facts.Iteration;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import dlproflint.testing.ProfileVariants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Iteration discovery on Kineto traces the team made from real ones: a TensorBoard-plugin ResNet-50 trace
 * with its {@code ProfilerStep#N} annotations renamed, or removed together with the DataLoader and
 * optimizer landmarks; GPU-side step copies dropped; and contradicting markers (steps on two threads,
 * nested, overlapping, numbering gaps) made from a three-step HTA trace. (Every TB-plugin trace without its
 * step markers, with the findings, is in rule-tests' {@code IterationGeneralisationTest}.)
 */
class KinetoIterationVariantsTest {
    private static final KinetoTraceReader READER = new KinetoTraceReader();
    private static final String W0 = "kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_0/worker0.pt.trace.json.gz";
    private static final String THREE_STEPS = "hta/tests/data/nccl_parser_config/nccl_data.json.gz";

    @TempDir
    Path dir;

    private static boolean step(String name) {
        return name.startsWith("ProfilerStep#");
    }

    private static boolean dataLoader(String name) {
        return name.startsWith("enumerate(DataLoader)#");
    }

    private static List<String> codes(ProfileFacts f) {
        return f.warnings().stream().map(ExtractionWarning::code).toList();
    }

    @Test
    void withoutDataLoaderCallsTheOptimizerStepsAndThenTheFirstRepeatingOpStillSplitIt() throws Exception {
        Path original = Corpus.file(W0);
        ProfileFacts marked = READER.read(original, ReadOptions.DEFAULT);
        Path noLoader = ProfileVariants.kineto(original, dir, "no-loader",
                ProfileVariants.without(n -> step(n) || dataLoader(n)));
        ProfileFacts opt = READER.read(noLoader, ReadOptions.DEFAULT);
        assertEquals(IterationSummary.INFERRED_OPTIMIZER, opt.iterationSummary().method());
        assertEquals(6, opt.iterationSummary().total());
        for (int i = 0; i < 6; i++) {
            long end = opt.iterations().get(i).endNs();
            Iteration truth = marked.iterations().get(i);
            assertTrue(end > truth.startNs() && end <= truth.endNs(), "inferred step " + i + " ends inside ProfilerStep " + i);
        }

        Path bare = ProfileVariants.kineto(original, dir, "bare",
                ProfileVariants.without(n -> step(n) || dataLoader(n) || n.startsWith("Optimizer.")));
        ProfileFacts op = READER.read(bare, ReadOptions.DEFAULT);
        assertEquals(IterationSummary.INFERRED_REPEATING_OP, op.iterationSummary().method());
        assertEquals(6, op.iterationSummary().total());
        assertTrue(op.iterationSummary().variationPct() < 20, "a regular period: " + op.iterationSummary());
    }

    @Test
    void renamedStepMarkersAreANumberedFamilyWithTheSameWindows() throws Exception {
        Path original = Corpus.file(W0);
        Path renamed = ProfileVariants.kineto(original, dir, "renamed",
                ProfileVariants.renamed(KinetoIterationVariantsTest::step, n -> "train iteration " + n.substring(13)));
        ProfileFacts marked = READER.read(original, ReadOptions.DEFAULT);
        ProfileFacts f = READER.read(renamed, ReadOptions.DEFAULT);
        assertEquals(IterationSummary.NUMBERED_RANGES, f.iterationSummary().method());
        assertEquals("train iteration N", f.iterationSummary().keyNode());
        assertEquals(marked.iterations().stream().map(i -> List.of(i.startNs(), i.endNs())).toList(),
                f.iterations().stream().map(i -> List.of(i.startNs(), i.endNs())).toList());
    }

    @Test
    void aKeyNodeNamesTheProfilerStepFamily() throws Exception {
        ProfileFacts f = READER.read(Corpus.file(W0), new ReadOptions("ProfilerStep", null, null));
        assertEquals(IterationSummary.USER_KEY_NODE, f.iterationSummary().method());
        assertEquals(7, f.iterationSummary().total(), "6 instances, DLProf's rule: 7 intervals");
        assertTrue(codes(f).stream().noneMatch(c -> c.equals("key-node-not-found")));
    }

    @Test
    void gpuSideStepCopiesAreOptional() throws Exception {
        Path original = Corpus.file("hta/tests/data/nccl_parser_config/nccl_data.json.gz");
        Path cpuOnly = ProfileVariants.kineto(original, dir, "no-gpu-steps", events -> events.stream()
                .filter(e -> !("gpu_user_annotation".equals(e.path("cat").asText()) && step(e.path("name").asText(""))))
                .toList());
        ProfileFacts a = READER.read(original, ReadOptions.DEFAULT);
        ProfileFacts b = READER.read(cpuOnly, ReadOptions.DEFAULT);
        assertEquals(IterationSummary.STEP_MARKERS, b.iterationSummary().method());
        assertEquals(a.iterations().stream().map(Iteration::startNs).toList(), b.iterations().stream().map(Iteration::startNs).toList());
        assertEquals(a.iterations().stream().mapToLong(Iteration::kernelCount).sum(),
                b.iterations().stream().mapToLong(Iteration::kernelCount).sum(), "every kernel still in some step");
    }

    // ---------------------------------------------------------------- contradicting markers (bad input)

    @Test
    void stepsCopiedOntoASecondThreadAreMergedByNumberWithAWarning() throws Exception {
        Path p = ProfileVariants.kineto(Corpus.file(THREE_STEPS), dir, "two-threads", ProfileVariants.plusCopies(
                e -> step(e.path("name").asText("")), e -> e.put("tid", 424242).put("ts", e.path("ts").asDouble() + 5)));
        ProfileFacts f = READER.read(p, ReadOptions.DEFAULT);
        assertEquals(3, f.iterationSummary().total());
        assertEquals(List.of("step-markers-threads"), codes(f).stream().filter(c -> c.startsWith("step-")).toList());
    }

    @Test
    void aMissingStepLeavesAGapThatIsReported() throws Exception {
        JsonNode dom = ProfileVariants.readTrace(Corpus.file(THREE_STEPS));
        String middle = ProfileVariants.events(dom).stream().map(e -> e.path("name").asText("")).filter(KinetoIterationVariantsTest::step)
                .sorted().toList().get(1);
        Path p = ProfileVariants.kineto(Corpus.file(THREE_STEPS), dir, "gap", ProfileVariants.without(middle::equals));
        ProfileFacts f = READER.read(p, ReadOptions.DEFAULT);
        assertEquals(2, f.iterationSummary().total());
        assertTrue(codes(f).contains("step-numbering-gap"), codes(f).toString());
    }

    @Test
    void nestedAndOverlappingStepsAreResolvedWithWarnings() throws Exception {
        // a copy of every step nested inside it (same thread, shorter), and every step stretched into the next one
        Path nested = ProfileVariants.kineto(Corpus.file(THREE_STEPS), dir, "nested", ProfileVariants.plusCopies(
                e -> step(e.path("name").asText("")),
                e -> e.put("ts", e.path("ts").asDouble() + 10).put("dur", e.path("dur").asDouble() / 2)
                        .put("name", "ProfilerStep#" + (1000 + Integer.parseInt(e.path("name").asText().substring(13))))));
        ProfileFacts n = READER.read(nested, ReadOptions.DEFAULT);
        assertEquals(3, n.iterationSummary().total(), "the outer ranges are the steps");
        assertTrue(codes(n).contains("step-markers-nested"), codes(n).toString());

        ProfileFacts base = READER.read(Corpus.file(THREE_STEPS), ReadOptions.DEFAULT);
        Path stretched = ProfileVariants.kineto(Corpus.file(THREE_STEPS), dir, "stretched", events -> events.stream().map(e -> {
            if (!e.isObject() || !step(e.path("name").asText(""))) return e;
            com.fasterxml.jackson.databind.node.ObjectNode c = ((com.fasterxml.jackson.databind.node.ObjectNode) e).deepCopy();
            return (JsonNode) c.put("dur", e.path("dur").asDouble() * 1.5);
        }).toList());
        ProfileFacts o = READER.read(stretched, ReadOptions.DEFAULT);
        assertEquals(3, o.iterationSummary().total());
        assertTrue(codes(o).contains("step-markers-overlap"), codes(o).toString());
        for (int i = 0; i + 1 < 3; i++) {
            assertEquals(o.iterations().get(i + 1).startNs(), o.iterations().get(i).endNs(), "cut where the next starts");
            assertEquals(base.iterations().get(i).startNs(), o.iterations().get(i).startNs());
        }
    }
}
