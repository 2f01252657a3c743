package dlproflint.facts;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StackFramesTest {
    private static StackFrame f(String file, int line) {
        return new StackFrame(file, line, "fn");
    }

    @Test
    void libraryFramesAsEveryFormatSpellsThem() {
        for (String lib : List.of("/usr/lib/python3.10/site-packages/torch/nn/modules/conv.py",
                "/usr/local/lib/python3.8/dist-packages/apex/amp.py", "/opt/conda/lib/python3.10/threading.py",
                "/home/me/pytorch/torch/nn/functional.py", "torch/nn/modules/linear.py", "transformers/models/bert/modeling_bert.py",
                "threading.py", "multiprocessing/process.py", "<frozen os>", "<string>", "<built-in method add of Tensor>",
                "nn.Module: Linear_0", "[Unknown]", "", "C:\\Python310\\Lib\\site-packages\\torch\\x.py")) {
            assertTrue(StackFrames.isLibraryFile(lib), lib);
        }
        for (String user : List.of("train.py", "models/resnet.py", "/workspace/proj/model.py", "moca/library/profile.py",
                "./net.py", "vllm/model_executor/layers/linear.py")) {
            assertFalse(StackFrames.isLibraryFile(user), user);
        }
    }

    @Test
    void aUserFrameIsASourceLine() {
        assertTrue(StackFrames.isUserFrame(f("model.py", 3)));
        assertFalse(StackFrames.isUserFrame(f("model.py", 0)), "no line: a native frame or an unknown line");
        assertFalse(StackFrames.isUserFrame(f("/usr/lib/libcudart.so.12", 0)));
        assertFalse(StackFrames.isUserFrame(null));
    }

    @Test
    void keptFromTheInnermostUserFrameAndBounded() {
        List<StackFrame> s = List.of(f("torch/nn/modules/conv.py", 456), f("torch/nn/modules/module.py", 1501),
                f("model.py", 31), f("torch/nn/modules/module.py", 1501), f("train.py", 80), f("train.py", 5), f("runpy.py", 1));
        List<StackFrame> kept = StackFrames.keepInnermostFirst(s);
        assertEquals(StackFrames.MAX_FRAMES, kept.size());
        assertEquals(f("model.py", 31), kept.get(0));
        assertEquals(f("model.py", 31), StackFrames.firstUser(kept));
        List<StackFrame> libOnly = List.of(f("torch/a.py", 1), f("threading.py", 2));
        assertEquals(libOnly, StackFrames.keepInnermostFirst(libOnly), "kept, so the report can say 'library frames only'");
        assertNull(StackFrames.firstUser(libOnly));
    }

    @Test
    void aWholeStackRecordedOutermostFirstIsReversedNotCut() {
        List<StackFrame> dlprof = List.of(f("dummy_network.py", 42), f("/x/site-packages/torch/nn/modules/module.py", 1102),
                f("dummy_network.py", 25), f("/x/site-packages/torch/nn/modules/module.py", 1102),
                f("/x/site-packages/torch/nn/modules/conv.py", 446), f("/x/site-packages/torch/nn/modules/conv.py", 443));
        List<StackFrame> in = StackFrames.innermostFirst(dlprof);
        assertEquals(6, in.size());
        assertEquals(f("/x/site-packages/torch/nn/modules/conv.py", 443), in.get(0));
        assertEquals(f("dummy_network.py", 25), StackFrames.firstUser(in), "the user frame closest to the op");
    }
}
