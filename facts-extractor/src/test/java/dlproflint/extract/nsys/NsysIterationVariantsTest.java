package dlproflint.extract.nsys;

import dlproflint.extract.ReadOptions;
import dlproflint.facts.ExtractionWarning;
import dlproflint.facts.Iteration;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.ProfileFacts;
import dlproflint.synth.GpuModel;
import dlproflint.synth.NsysSchema;
import dlproflint.synth.Workload;
import dlproflint.synth.WorkloadSpec;
import dlproflint.synth.WorkloadSpec.StepMarkers;
import dlproflint.testing.Corpus;
import dlproflint.testing.ProfileVariants;
import dlproflint.testing.SqliteVariant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Iteration discovery on Nsight Systems exports the team made by transforming a real export (the llama3
 * inference simulation: 64 {@code token_N_processing} ranges, each holding 8 layers) and with the
 * synthetic generator: step markers added, removed, renamed, stored as registered strings, a column
 * dropped, a table dropped. Expected windows come from the SQL that made the variant, never typed in.
 */
class NsysIterationVariantsTest {
    private static final NsysSqliteReader READER = new NsysSqliteReader();
    private static final String LLAMA = "llama3-inference-nsys2024/real_inference_simulation.sqlite";
    private static final String TOKENS = "token_%_processing";

    @TempDir
    Path dir;

    private static long token(String text) {
        return Long.parseLong(text.substring("token_".length(), text.indexOf("_processing")));
    }

    private static void assertWindows(List<long[]> expected, ProfileFacts f) {
        assertEquals(expected.size(), f.iterations().size(), "one iteration per step range");
        for (int i = 0; i < expected.size(); i++) {
            Iteration it = f.iterations().get(i);
            assertEquals(expected.get(i)[0], it.startNs(), "start of step " + i);
            assertEquals(expected.get(i)[1], it.endNs(), "end of step " + i);
        }
    }

    private static List<String> codes(ProfileFacts f) {
        return f.warnings().stream().map(ExtractionWarning::code).toList();
    }

    @ParameterizedTest(name = "registered string: {0}")
    @ValueSource(booleans = {true, false})
    void profilerStepRangesSplitTheExportIntoExactlyThoseStepsWithoutAKeyNode(boolean registered) throws Exception {
        Path db = SqliteVariant.of(Corpus.file(LLAMA), dir, "with-profiler-steps-" + registered);
        List<long[]> windows = ProfileVariants.wrapRanges(db, TOKENS, t -> "ProfilerStep#" + (100 + token(t)), registered);
        assertEquals(64, windows.size());

        ProfileFacts f = READER.read(db, ReadOptions.DEFAULT);
        IterationSummary s = f.iterationSummary();
        assertEquals(IterationSummary.STEP_MARKERS, s.method());
        assertEquals("ProfilerStep#N", s.keyNode());
        assertTrue(s.keyNodeFound());
        assertWindows(windows, f);
        assertEquals(1536, f.iterations().stream().mapToLong(Iteration::kernelCount).sum(), "every kernel in a step");
        assertFalse(codes(f).contains("no-iterations"));
        // the first token's step is warm-up (its layer 0 takes 142 ms): the steady window leaves it out and says so
        assertEquals(List.of(0), s.leftOut(), s.windowNote());
        assertEquals(1, s.aggStart());
        // the markers are transparent: ops are the same as without them (plus the marker names themselves)
        assertTrue(f.ops().stream().anyMatch(o -> o.name().equals("layer_0_computation") && o.calls() == 63));

        // --key-node ProfilerStep names the family: DLProf's rule, 64 instances -> 65 intervals
        ProfileFacts keyed = READER.read(db, new ReadOptions("ProfilerStep", null, null));
        assertEquals(IterationSummary.USER_KEY_NODE, keyed.iterationSummary().method());
        assertEquals(65, keyed.iterationSummary().total());
    }

    @Test
    void withoutTheMarkersItsOwnNumberedRangesStillSplitIt() throws Exception {
        Path db = SqliteVariant.of(Corpus.file(LLAMA), dir, "copy");
        List<long[]> tokens = ProfileVariants.wrapRanges(SqliteVariant.of(db, dir, "probe"), TOKENS, t -> t, false);
        ProfileFacts f = READER.read(db, ReadOptions.DEFAULT);
        assertEquals(IterationSummary.NUMBERED_RANGES, f.iterationSummary().method());
        assertEquals("token_N_processing", f.iterationSummary().keyNode());
        // the token ranges themselves: 1 ns inside the probe's wrapping windows
        for (int i = 0; i < tokens.size(); i++) {
            assertEquals(tokens.get(i)[0] + 1, f.iterations().get(i).startNs());
            assertEquals(tokens.get(i)[1] - 1, f.iterations().get(i).endNs());
        }
    }

    @Test
    void renamedCountersAndRegisteredStringsGiveTheSameSteps() throws Exception {
        ProfileFacts original = READER.read(Corpus.file(LLAMA), ReadOptions.DEFAULT);
        Path renamed = SqliteVariant.of(Corpus.file(LLAMA), dir, "renamed",
                "UPDATE NVTX_EVENTS SET text = 'decode iteration ' || replace(replace(text, 'token_', ''), '_processing', '') "
                        + "WHERE text LIKE 'token_%_processing'");
        Path registered = SqliteVariant.of(Corpus.file(LLAMA), dir, "registered");
        ProfileVariants.registerAllNvtxText(registered);
        Path noTextId = SqliteVariant.of(Corpus.file(LLAMA), dir, "no-textId-column", "ALTER TABLE NVTX_EVENTS DROP COLUMN textId");
        for (Path p : List.of(renamed, registered, noTextId)) {
            ProfileFacts f = READER.read(p, ReadOptions.DEFAULT);
            assertEquals(IterationSummary.NUMBERED_RANGES, f.iterationSummary().method(), p.toString());
            assertEquals(64, f.iterationSummary().total(), p.toString());
            for (int i = 0; i < 64; i++) {
                assertEquals(original.iterations().get(i).startNs(), f.iterations().get(i).startNs(), p + " step " + i);
                assertEquals(original.iterations().get(i).endNs(), f.iterations().get(i).endNs(), p + " step " + i);
            }
        }
        assertEquals("decode iteration N", READER.read(renamed, ReadOptions.DEFAULT).iterationSummary().keyNode());
        assertEquals(1601, READER.read(registered, ReadOptions.DEFAULT).markers().textIdRanges(), "every range now a registered string");
    }

    @Test
    void withoutAnyStepRangeItSaysWhyNotAndNamesTheClosestCandidates() throws Exception {
        Path db = SqliteVariant.of(Corpus.file(LLAMA), dir, "no-step-ranges",
                "DELETE FROM NVTX_EVENTS WHERE text LIKE 'token_%_processing'");
        ProfileFacts f = READER.read(db, ReadOptions.DEFAULT);
        IterationSummary s = f.iterationSummary();
        assertEquals(IterationSummary.NONE, s.method());
        assertEquals(1, s.total());
        // every repeating range lies inside the one 'layer_processing_simulation' range: layers of one step, not steps
        assertFalse(s.candidates().isEmpty());
        assertTrue(s.candidates().stream().allMatch(c -> c.instances() >= 2 && c.coveragePct() >= 20), s.candidates().toString());
        ExtractionWarning w = f.warnings().stream().filter(x -> x.code().equals("no-iterations")).findFirst().orElseThrow();
        assertTrue(w.message().contains("closest step candidates: '" + s.candidates().get(0).keyNode() + "'"), w.message());
        assertTrue(w.message().contains("they all repeat inside the single range 'layer_processing_simulation'"), w.message());
    }

    @Test
    void droppedTablesLeaveWhatCanStillBeSeen() throws Exception {
        Path noNvtx = SqliteVariant.of(Corpus.file(LLAMA), dir, "no-nvtx", "DROP TABLE NVTX_EVENTS");
        ProfileFacts a = READER.read(noNvtx, ReadOptions.DEFAULT);
        assertEquals(IterationSummary.NONE, a.iterationSummary().method());
        assertTrue(a.warnings().stream().anyMatch(w -> w.code().equals("no-iterations")
                && w.message().contains("the profile has no named ranges or ops")), a.warnings().toString());
        assertEquals(Iteration.UNKNOWN, a.iterations().get(0).dataLoaderNs(), "no NVTX: data-loader time cannot be seen");

        Path noApi = SqliteVariant.of(Corpus.file(LLAMA), dir, "no-runtime", "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME");
        ProfileFacts b = READER.read(noApi, ReadOptions.DEFAULT);
        assertEquals(64, b.iterationSummary().total(), "the steps come from NVTX, not from the API calls");
        assertTrue(b.iterations().stream().allMatch(i -> i.syncNs() == Iteration.UNKNOWN), "no API calls: synchronisation unknown");

        ProfileFacts c = READER.read(Corpus.file(LLAMA), ReadOptions.DEFAULT);
        assertTrue(c.iterations().stream().allMatch(i -> i.syncNs() > 0), "every token step synchronises (8 cudaDeviceSynchronize)");
        assertTrue(c.iterations().stream().allMatch(i -> i.gpuIdleNs() >= 0 && i.gpuIdleNs() <= i.durationNs()));
        assertTrue(c.iterations().stream().allMatch(i -> i.dataLoaderNs() == 0), "no data loader in an inference simulation");
    }

    /**
     * A data-loader range at the start of every token step is the steps' data-loader time, the same in the
     * iterations and in the job's per-step activity; a range whose text merely looks like one to SQL's
     * {@code LIKE} ({@code _} matches any character: "data loader") counts in neither.
     */
    @Test
    void dataLoaderRangesCountTheSameInTheIterationsAndTheJobSteps() throws Exception {
        String copyTokens = "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) SELECT %s, %s, 59, '%s', "
                + "globalTid, 0 FROM NVTX_EVENTS WHERE text LIKE 'token_%%_processing'";
        Path db = SqliteVariant.of(Corpus.file(LLAMA), dir, "with-data-loader",
                String.format(copyTokens, "start + 1", "start + 20001", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"),
                String.format(copyTokens, "start + 30000", "start + 40000", "data loader warm-up"));
        ProfileFacts f = READER.read(db, ReadOptions.DEFAULT);
        assertEquals(64, f.iterations().size());
        assertEquals(64, f.stepActivity().size());
        for (int i = 0; i < 64; i++) {
            assertEquals(20_000, f.iterations().get(i).dataLoaderNs(), "iteration " + i);
            assertEquals(20_000, f.stepActivity().get(i).dataLoaderNs(), "job step " + i);
        }
    }

    // ---------------------------------------------------------------- generated training loops

    private static WorkloadSpec spec(NsysSchema schema, StepMarkers markers) {
        return WorkloadSpec.builder().schema(schema).gpu(GpuModel.A100_SXM4_40GB).iterations(12).opsPerIteration(16)
                .kernelsPerOp(2).backward(true).tensorCores(true).inputBytes(1 << 20).deviceSync(true)
                .dataloaderGapNs(3_000_000).seed(11).stepMarkers(markers).build();
    }

    @ParameterizedTest
    @EnumSource(value = NsysSchema.class)
    void generatedLoopWithProfilerStepsInEitherStorageSplitsIntoThem(NsysSchema schema) throws Exception {
        for (StepMarkers m : List.of(StepMarkers.PROFILER_STEP_TEXT, StepMarkers.PROFILER_STEP_REGISTERED)) {
            Path f = dir.resolve(schema + "-" + m + ".sqlite");
            Workload.generate(spec(schema, m), f);
            ProfileFacts facts = READER.read(f, ReadOptions.DEFAULT);
            assertEquals(IterationSummary.STEP_MARKERS, facts.iterationSummary().method(), schema + " " + m);
            assertEquals(12, facts.iterationSummary().total(), schema + " " + m);
            assertEquals(List.of(), codes(facts).stream().filter(c -> c.startsWith("step-")).toList());
            for (Iteration it : facts.iterations()) {
                assertTrue(it.syncNs() > 0, "one cudaDeviceSynchronize per step");
                assertTrue(it.gpuIdleNs() >= 3_000_000 && it.gpuIdleNs() < it.durationNs(), "the data-loader gap leaves the GPU idle: " + it);
            }
        }
    }

    @Test
    void theSameLoopWithoutMarkersIsSplitByItsRepeatingFirstOp() throws Exception {
        Path marked = dir.resolve("marked.sqlite");
        Path bare = dir.resolve("bare.sqlite");
        Workload.generate(spec(NsysSchema.NSYS_2025_5, StepMarkers.PROFILER_STEP_TEXT), marked);
        Workload.generate(spec(NsysSchema.NSYS_2025_5, StepMarkers.NONE), bare);
        ProfileFacts m = READER.read(marked, ReadOptions.DEFAULT);
        ProfileFacts b = READER.read(bare, ReadOptions.DEFAULT);
        assertEquals(IterationSummary.INFERRED_REPEATING_OP, b.iterationSummary().method());
        assertEquals("aten::to", b.iterationSummary().keyNode(), "the input copy opens every step");
        assertEquals(12, b.iterationSummary().total());
        // each inferred step starts at its input copy, inside the marked step of the same number
        for (int i = 0; i < 12; i++) {
            Iteration step = m.iterations().get(i);
            long start = b.iterations().get(i).startNs();
            assertTrue(start >= step.startNs() && start < step.endNs(), "inferred step " + i + " starts inside marked step " + i);
        }
        assertEquals(m.iterations().stream().mapToLong(Iteration::kernelCount).sum(),
                b.iterations().stream().mapToLong(Iteration::kernelCount).sum());
    }
}
