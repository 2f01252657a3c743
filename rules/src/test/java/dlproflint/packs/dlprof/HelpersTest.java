package dlproflint.packs.dlprof;

import dlproflint.findings.Units;
import dlproflint.facts.Direction;
import dlproflint.facts.Iteration;
import dlproflint.facts.KernelFact;
import dlproflint.facts.ModelConfig;
import dlproflint.facts.OpFact;
import dlproflint.facts.Stat;
import dlproflint.facts.StackFrame;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Java helpers the dlprof DRL rules call; the rules themselves are tested by their cases.yaml. */
class HelpersTest {
    private static OpFact op(String id, String name, String type, long calls, List<StackFrame> stack) {
        return new OpFact(id, name, type, Direction.FPROP, calls, Stat.EMPTY, Stat.of(1000), Stat.EMPTY, Stat.EMPTY,
                false, false, 0, calls, null, null, stack);
    }

    private static OpFact op(String id, long calls) {
        return op(id, id.toLowerCase(), "x", calls, List.of());
    }

    @Test
    void messagesUseTheSharedUnitsAndDlprofsAgreement() {
        // the formats themselves are tested with dlproflint.findings.Units
        assertEquals(dlproflint.findings.Units.duration(572668), Units.duration(572668));
        assertEquals("1 op", Units.count(1, "op", "ops"));
        assertEquals("3 ops", Units.count(3, "op", "ops"));
    }

    @Test
    void shapesInPythonTupleAndDlprofLabelledForm() {
        assertEquals(List.of(3L, 6L), TensorShapes.misaligned("conv2d", "[(32, 3, 32, 32), (6, 3, 3, 3), (6,)]", 8));
        assertEquals(List.of(3L, 6L), TensorShapes.misaligned("conv2d",
                "<N:32, C:3, H:32, W:32>; <K:6, C:3, R:3, S:3>; <6>", 8));
        // linear 400 -> 120: K=400, M=120 are aligned; the batch (N) and the bias do not matter
        assertEquals(List.of(), TensorShapes.misaligned("linear", "<N:33, K:400>; <M:120, K:400>; <120>", 8));
        assertEquals(List.of(84L), TensorShapes.misaligned("linear", "[(32, 120), (84, 120)]", 8));
        assertEquals(List.of(), TensorShapes.misaligned("linear", "no shapes recorded", 8));
        assertTrue(TensorShapes.halfPrecision("float16"));
        assertTrue(TensorShapes.halfPrecision("bfloat16"));
        assertFalse(TensorShapes.halfPrecision("float32"));
    }

    @Test
    void convolutionTypesButNotConversions() {
        assertTrue(ConvAlgorithmSearch.isConv("conv2d"));
        assertTrue(ConvAlgorithmSearch.isConv("cudnn_convolution"));
        assertTrue(ConvAlgorithmSearch.isConv("Conv2DBackpropFilter"));
        assertFalse(ConvAlgorithmSearch.isConv("convert_element_type"));
        assertFalse(ConvAlgorithmSearch.isConv("linear"));
    }

    @Test
    void recordedBenchmarkSettingWinsOverKernels() {
        OpFact conv = new OpFact("CONV2D_1", "conv", "conv2d", Direction.FPROP, 1, Stat.EMPTY, Stat.of(5000),
                Stat.EMPTY, Stat.EMPTY, true, false, 0, 1, null, null, List.of());
        List<Object> kernels = List.of(new KernelFact("k", "k", "CONV2D_1", 0, Stat.of(5000), Stat.EMPTY, false, "", ""));
        ModelConfig off = new ModelConfig(null, null, false, null, null, null, null, null, null);
        ModelConfig on = new ModelConfig(null, null, true, null, null, null, null, null, null);
        assertEquals("recorded", ConvAlgorithmSearch.assess(off, List.of(conv), kernels, List.of(), 8).get(0).source());
        assertEquals(List.of(), ConvAlgorithmSearch.assess(on, List.of(conv), kernels, List.of(), 8));
        assertEquals("kernels", ConvAlgorithmSearch.assess(ModelConfig.unknown(), List.of(conv), kernels, List.of(), 8).get(0).source());
        assertEquals(List.of(), ConvAlgorithmSearch.assess(ModelConfig.unknown(), List.of(conv), kernels, List.of(), 1));
    }

    @Test
    void callsCountedOneByOneDecideOnlyFromTheFirstStep() {
        OpFact conv = new OpFact("aten::cudnn_convolution", "aten::cudnn_convolution", "cudnn_convolution", Direction.FPROP,
                40, Stat.EMPTY, Stat.of(5000), Stat.EMPTY, Stat.EMPTY, true, false, 0, 1, null, null, List.of());
        // the op's kernels over all its calls: 12 shapes' worth, which per op would read as a search
        List<Object> kernels = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
            kernels.add(new KernelFact("k" + i, "k" + i, "aten::cudnn_convolution", 0, Stat.of(400), Stat.EMPTY, false, "", ""));
        }
        ModelConfig unknown = ModelConfig.unknown();
        assertEquals(List.of(), ConvAlgorithmSearch.assess(unknown, List.of(conv), kernels, List.of(), 8), "per op: a search");
        // per call: 3 kernels at most; from step 0 that is no search, from step 3 it cannot tell
        assertEquals("first-step-calls", ConvAlgorithmSearch.assess(unknown, List.of(conv), kernels,
                List.of(new dlproflint.facts.ConvolutionCalls(40, 3, 0)), 8).get(0).source());
        assertEquals(List.of(), ConvAlgorithmSearch.assess(unknown, List.of(conv), kernels,
                List.of(new dlproflint.facts.ConvolutionCalls(40, 3, 3)), 8));
        assertEquals(List.of(), ConvAlgorithmSearch.assess(unknown, List.of(conv), kernels,
                List.of(new dlproflint.facts.ConvolutionCalls(40, 3, -1)), 8), "steps without numbers");
        // a call that searched: on, whatever the first step
        assertEquals(List.of(), ConvAlgorithmSearch.assess(unknown, List.of(conv), kernels,
                List.of(new dlproflint.facts.ConvolutionCalls(40, 14, 0)), 8));
    }

    @Test
    void stepCountIsTheLargestCallCountThatDividesTheRepeatedOps() {
        List<OpFact> ops = List.of(op("INIT_1", 1), op("A_1", 10), op("B_1", 20), op("C_1", 30), op("STEP_1", 10),
                op("ODD_1", 7), op("unassociated_k", 10));
        KeyNodeCandidates.Proposal p = KeyNodeCandidates.propose(ops, 80, 3);
        assertEquals(10, p.stepsPerRun());
        assertEquals(6, p.namedOps());
        assertEquals(5, p.repeatedOps());
        assertEquals(80.0, p.coveragePct(), 1e-9); // 4 of 5 repeated ops are multiples of 10
        assertEquals(List.of("STEP_1", "A_1"), p.candidateIds()); // name hint first, then by id
        assertEquals(0, KeyNodeCandidates.propose(ops, 100, 3).stepsPerRun()); // 7 calls fit no step count of all ops
        assertFalse(KeyNodeCandidates.propose(List.of(op("A_1", 7), op("B_1", 3)), 100, 3).hasCandidates());
        KeyNodeCandidates.Proposal single = KeyNodeCandidates.propose(List.of(op("A_1", 1), op("B_1", 1)), 80, 3);
        assertEquals(0, single.repeatedOps());
        assertEquals(2, single.namedOps());
    }

    @Test
    void steadyWindowSkipsStartUpTeardownAndOutliers() {
        long[] d = {150, 80, 40, 40, 41, 40, 90, 40, 40, 40, 40, 40, 10}; // runs 2-5 and 7-11
        List<Iteration> its = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < d.length; i++) {
            its.add(new Iteration(i, t, t + d[i], true, 1, 1, 0, 0));
            t += d[i];
        }
        SteadyWindow.Window w = SteadyWindow.propose(its, 10, 3);
        assertEquals(7, w.start());   // the longer run wins; iteration 6 (90) breaks the steady run
        assertEquals(11, w.stop());   // iteration 12 (teardown interval) is excluded
        assertEquals(5, w.count());
        assertEquals(0.0, w.variationPct(), 1e-9);
        assertEquals(0, SteadyWindow.slowest(its).index());
        assertNull(SteadyWindow.propose(its.subList(0, 2), 10, 3));
    }

    @Test
    void sourceLocationIsTheUserFrameClosestToTheOp() {
        // DLProf plugin traceMarker (recorded outermost first), as the readers hold it: innermost first
        List<StackFrame> dlprof = dlproflint.facts.StackFrames.innermostFirst(List.of(new StackFrame("dummy_network.py", 42, null),
                new StackFrame("/usr/lib/python3.6/site-packages/torch/nn/modules/module.py", 1102, null),
                new StackFrame("dummy_network.py", 25, null),
                new StackFrame("/usr/lib/python3.6/site-packages/torch/nn/modules/conv.py", 443, null)));
        assertEquals("dummy_network.py:25", String.valueOf(SourceLocation.of(op("C_1", "c", "conv2d", 1, dlprof))));
        // Kineto call stack: innermost first
        List<StackFrame> innermostFirst = List.of(new StackFrame("/opt/conda/lib/python3.10/site-packages/torch/nn/modules/conv.py", 456, "forward"),
                new StackFrame("model.py", 31, "forward"), new StackFrame("train.py", 80, "<module>"));
        assertEquals("model.py:31", String.valueOf(SourceLocation.of(op("C_1", "c", "conv2d", 1, innermostFirst))));
        assertNull(SourceLocation.of(op("C_1", 1)));
    }
}
