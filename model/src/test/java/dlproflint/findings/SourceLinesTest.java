package dlproflint.findings;

import dlproflint.facts.CallSites;
import dlproflint.facts.Direction;
import dlproflint.facts.KernelFact;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.StackFrame;
import dlproflint.facts.Stat;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SourceLinesTest {
    private static final StackFrame MODEL = new StackFrame("model.py", 25, "forward");
    private static final StackFrame LOOP = new StackFrame("train.py", 80, "main");

    private static ProfileFacts facts(String format, CallSites sites) {
        return ProfileFacts.builder().profile(new ProfileInfo("p", format, null, null, 0, 1))
                .op(new OpFact("CONV_1", "aten::conv2d", "conv2d", Direction.FPROP, 1, Stat.EMPTY, Stat.of(5), Stat.EMPTY,
                        Stat.EMPTY, true, false, 0, 1, null, null, List.of(MODEL, LOOP)))
                .op(new OpFact("ADD_1", "aten::add", "add", Direction.FPROP, 1, Stat.EMPTY, Stat.of(5), Stat.EMPTY,
                        Stat.EMPTY, false, false, 0, 1, null, null, List.of(new StackFrame("torch/nn/functional.py", 3, "f"))))
                .kernel(new KernelFact("sgemm", "sgemm", "CONV_1", 0, Stat.of(5), Stat.EMPTY, false, null, null))
                .callSites(sites).build();
    }

    private static Finding finding(Subject s) {
        return new Finding("p/r", "p", "1", Severity.WARNING, "c", "x", "y", Map.of(), s, null, null, "p", "fp", null);
    }

    @Test
    void everySubjectKindFindsItsLine() {
        ProfileFacts f = facts("kineto", new CallSites("Kineto python_function events", null, List.of(LOOP),
                Map.of("cudaMemcpyAsync", List.of(new StackFrame("data.py", 9, "load")))));
        assertEquals(MODEL, SourceLines.locate(Subject.op("CONV_1", "aten::conv2d"), f));
        assertEquals(MODEL, SourceLines.locate(Subject.kernel("sgemm"), f), "the kernel's launching op");
        assertEquals(new StackFrame("data.py", 9, "load"), SourceLines.locate(Subject.api("cudaMemcpyAsync HtoD"), f),
                "an API subject names the copy kind after the API");
        assertEquals(LOOP, SourceLines.locate(Subject.profile(), f));
        assertEquals(LOOP, SourceLines.locate(Subject.gpu(0), f));
        assertNull(SourceLines.locate(Subject.op("ADD_1", "aten::add"), f));
        assertEquals(f.kernels().get(0), SourceLines.chain(Subject.op("CONV_1", "c"), f).kernel());
    }

    @Test
    void whyAFindingHasNoLine() {
        ProfileFacts none = facts("kineto", CallSites.none(null));
        assertEquals("no call stacks in this profile: record with torch.profiler.profile(with_stack=True)",
                SourceLines.whyNone(finding(Subject.profile()), none));
        ProfileFacts nsys = facts("nsys-sqlite", CallSites.none(null));
        assertTrue(SourceLines.whyNone(finding(Subject.profile()), nsys).contains("--cudabacktrace=all --python-backtrace=cuda"));
        ProfileFacts with = facts("kineto", new CallSites("Kineto Call stack args", null, List.of(), Map.of()));
        assertTrue(SourceLines.whyNone(finding(Subject.op("ADD_1", "aten::add")), with)
                .startsWith("its call stack holds library frames only (innermost: torch/nn/functional.py:3 in f)"));
        assertTrue(SourceLines.whyNone(finding(Subject.api("cudaStreamSynchronize")), with)
                .startsWith("the profile recorded no call stack for these API calls"));
        assertNull(SourceLines.whyNone(finding(Subject.profile()).withLocation(MODEL), with));
    }
}
