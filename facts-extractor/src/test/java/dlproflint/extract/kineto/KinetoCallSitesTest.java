package dlproflint.extract.kineto;

import dlproflint.extract.ReadOptions;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.StackFrame;
import dlproflint.facts.StackFrames;
import dlproflint.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Source lines of Kineto traces: {@code python_function} nesting (PyTorch 1.13+) and {@code Call stack} args (1.8-1.12). */
class KinetoCallSitesTest {
    @TempDir
    Path tmp;

    private static ProfileFacts read(String rel) throws Exception {
        return new KinetoTraceReader().read(Corpus.file(rel), ReadOptions.DEFAULT);
    }

    @Test
    void pythonFunctionEventsPlaceOpsInTheUsersCodeNotInTorchOrTransformers() throws Exception {
        ProfileFacts f = read("tracelens/tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz");
        assertEquals("Kineto python_function events", f.callSites().source());
        List<OpFact> withGpu = f.ops().stream().filter(o -> o.gpuTime().total() > 0 && !o.unassociated()).toList();
        assertFalse(withGpu.isEmpty());
        for (OpFact op : withGpu) {
            StackFrame at = op.location();
            assertNotNull(at, op.name() + " has no source line");
            assertFalse(at.file().startsWith("torch/") || at.file().startsWith("transformers/"), op.name() + " at " + at);
            assertTrue(op.stack().size() <= StackFrames.MAX_FRAMES, "bounded: " + op.stack());
        }
        Set<String> files = withGpu.stream().map(o -> o.location().file()).collect(Collectors.toSet());
        assertTrue(files.stream().allMatch(x -> x.startsWith("moca/")), "the harness that drives the model: " + files);
        assertNotNull(StackFrames.firstUser(f.callSites().step()), "the step's call site");
    }

    @Test
    void callStackArgsGiveOpsApisAndTheStepTheirLines() throws Exception {
        ProfileFacts f = read("kineto-tb-plugin/790be856/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
        assertEquals("Kineto Call stack args", f.callSites().source());
        assertEquals(new StackFrame("resnet50_profiler_api.py", 54, "<module>"), StackFrames.firstUser(f.callSites().step()),
                "ProfilerStep's Call stack: prof.step() in the training loop");
        OpFact conv = f.ops().stream().filter(o -> o.name().equals("aten::cudnn_convolution")).findFirst().orElseThrow();
        assertEquals(new StackFrame("resnet50_profiler_api.py", 46, "<module>"), conv.location(), "model(inputs)");
        StackFrame copy = StackFrames.firstUser(f.callSites().api("cudaMemcpyAsync"));
        assertNotNull(copy, "cudaMemcpyAsync placed through its op's External id: " + f.callSites().apis().keySet());
        assertEquals("resnet50_profiler_api.py", copy.file());
    }

    @Test
    void aTraceWithoutStacksSaysSo() throws Exception {
        ProfileFacts f = read("hta/tests/data/trace_diff/test/test.json.gz");
        assertFalse(f.callSites().recorded());
        assertTrue(f.ops().stream().allMatch(o -> o.stack().isEmpty()));
    }

    /** Hand-made nesting: library frames skipped, built-ins left out, the dominant call site wins, threads kept apart. */
    @Test
    void nestingOnOneThreadAndTheDominantSite() throws Exception {
        String trace = """
                {"traceEvents": [
                 {"ph":"X","cat":"python_function","name":"train.py(10): main","pid":1,"tid":1,"ts":0,"dur":1000},
                 {"ph":"X","cat":"python_function","name":"model.py(20): forward","pid":1,"tid":1,"ts":10,"dur":500},
                 {"ph":"X","cat":"python_function","name":"torch/nn/modules/linear.py(114): forward","pid":1,"tid":1,"ts":20,"dur":100},
                 {"ph":"X","cat":"python_function","name":"<built-in function linear>","pid":1,"tid":1,"ts":25,"dur":50},
                 {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":30,"dur":40,"args":{"External id":1}},
                 {"ph":"X","cat":"python_function","name":"model.py(40): head","pid":1,"tid":1,"ts":600,"dur":300},
                 {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":610,"dur":10,"args":{"External id":2}},
                 {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":630,"dur":10,"args":{"External id":3}},
                 {"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":2,"ts":31,"dur":5,"args":{"External id":4}}
                ]}""";
        Path file = tmp.resolve("nested.json");
        Files.writeString(file, trace, StandardCharsets.UTF_8);
        ProfileFacts f = new KinetoTraceReader().read(file, ReadOptions.DEFAULT);
        OpFact linear = f.ops().stream().filter(o -> o.name().equals("aten::linear")).findFirst().orElseThrow();
        assertEquals(new StackFrame("model.py", 40, "head"), linear.location(), "two calls from head() beat one from forward()");
        assertEquals(List.of(new StackFrame("model.py", 40, "head"), new StackFrame("train.py", 10, "main")), linear.stack());
        OpFact add = f.ops().stream().filter(o -> o.name().equals("aten::add")).findFirst().orElseThrow();
        assertNull(add.location(), "thread 2 has no Python events: thread 1's stack is not borrowed");
    }

    @Test
    void libraryFramesOnlyKeepTheInnermostForTheReport() throws IOException, Exception {
        String trace = """
                {"traceEvents": [
                 {"ph":"X","cat":"python_function","name":"threading.py(1032): _bootstrap","pid":1,"tid":1,"ts":0,"dur":100},
                 {"ph":"X","cat":"python_function","name":"torch/utils/data/dataloader.py(630): __next__","pid":1,"tid":1,"ts":5,"dur":50},
                 {"ph":"X","cat":"cpu_op","name":"aten::copy_","pid":1,"tid":1,"ts":10,"dur":5,"args":{"External id":1}}
                ]}""";
        Path file = tmp.resolve("lib.json");
        Files.writeString(file, trace, StandardCharsets.UTF_8);
        ProfileFacts f = new KinetoTraceReader().read(file, ReadOptions.DEFAULT);
        OpFact copy = f.ops().get(0);
        assertNull(copy.location());
        assertEquals("torch/utils/data/dataloader.py", copy.stack().get(0).file());
    }
}
