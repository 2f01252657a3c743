package dlproflint.extract.kineto;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.TorchPython;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The autograd profiler's legacy Chrome trace, recorded here by a real PyTorch without Kineto (Debian's
 * {@code python3-torch} 1.13; {@link TorchPython}) and read like a Kineto trace: its ops, its
 * {@code ProfilerStep#N} steps (or, without them, the steps its optimizer calls end), and a warning that names
 * what such a trace cannot hold. Every expected number comes from a plain JSON parse of the same file.
 */
class LegacyTraceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static final String MODEL = """
            import sys
            import torch
            import torch.nn as nn
            torch.manual_seed(0)
            model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            x = torch.randn(16, 32)
            y = torch.randint(0, 10, (16,))
            def step():
                opt.zero_grad()
                loss = nn.functional.cross_entropy(model(x), y)
                loss.backward()
                opt.step()
            """;

    /** A trace's events, checked to be the legacy format: a bare array of X events, none with a category. */
    private static List<JsonNode> legacyEvents(Path trace) throws Exception {
        JsonNode root = JSON.readTree(trace.toFile());
        assertTrue(root.isArray(), "the legacy format is a bare array");
        List<JsonNode> events = new ArrayList<>();
        root.forEach(events::add);
        assertTrue(events.size() > 100, "events: " + events.size());
        for (JsonNode e : events) {
            assertEquals("X", e.path("ph").asText(), e.toString());
            assertTrue(e.path("cat").isMissingNode(), "no category: " + e);
            assertEquals(TraceEvent.LEGACY_CPU_PROCESS, e.path("pid").asText());
        }
        return events;
    }

    @Test
    void anAutogradProfilerTraceWithProfilerStepRangesReadsItsOpsAndSteps() throws Exception {
        Path trace = dir.resolve("legacy.json");
        TorchPython.run(dir, "record.py", MODEL + """
                with torch.autograd.profiler.profile(record_shapes=True) as prof:
                    for i in range(5):
                        with torch.autograd.profiler.record_function("ProfilerStep#%d" % (i + 1)):
                            step()
                prof.export_chrome_trace(sys.argv[1])
                """, trace.toString());
        List<JsonNode> events = legacyEvents(trace);
        // every step aggregated (--iter-start 0): ops are counted over the aggregated steps, and the steady window
        // may leave out the first step of a fresh process (lazy initialisation: the first gradients' detach)
        ProfileFacts f = ProfileReaders.discover().read(trace, new ReadOptions(null, 0, null));

        assertEquals("kineto", f.profile().format());
        assertTrue(f.profile().profilerVersion().contains("legacy"), f.profile().profilerVersion());
        assertTrue(f.warnings().stream().anyMatch(w -> w.code().equals("legacy-trace")), f.warnings().toString());
        assertTrue(f.kernels().isEmpty() && f.gpus().isEmpty(), "a CPU-only trace has no GPU work");

        // steps: exactly the ProfilerStep#N ranges
        List<JsonNode> steps = events.stream().filter(e -> e.path("name").asText().startsWith("ProfilerStep#")).toList();
        assertEquals(5, steps.size());
        IterationSummary s = f.iterationSummary();
        assertEquals(IterationSummary.STEP_MARKERS, s.method());
        assertEquals(5, s.total());
        for (int i = 0; i < 5; i++) {
            long ts = steps.get(i).path("ts").asLong() * 1000;
            assertEquals(ts, f.iterations().get(i).startNs(), "step " + i + " start");
            assertEquals(ts + steps.get(i).path("dur").asLong() * 1000, f.iterations().get(i).endNs(), "step " + i + " end");
        }

        // ops: every event name that is not a record_function range (Name#...), with its call count
        Map<String, Integer> calls = new TreeMap<>();
        for (JsonNode e : events) {
            String name = e.path("name").asText();
            if (name.indexOf('#') <= 0) calls.merge(name, 1, Integer::sum);
        }
        Map<String, Long> read = new TreeMap<>();
        for (OpFact op : f.ops()) read.merge(op.name(), op.calls(), Long::sum);
        assertEquals(calls.keySet(), read.keySet(), "op names");
        for (Map.Entry<String, Integer> c : calls.entrySet()) {
            assertEquals(c.getValue().longValue(), read.get(c.getKey()), "calls of " + c.getKey());
        }
        assertTrue(read.containsKey("aten::addmm") && read.containsKey("AddmmBackward0"), read.keySet().toString());
    }

    @Test
    void withoutProfilerStepRangesTheOptimizerCallsEndTheSteps() throws Exception {
        Path trace = dir.resolve("bare.json");
        TorchPython.run(dir, "record.py", MODEL + """
                with torch.autograd.profiler.profile() as prof:
                    for i in range(6):
                        step()
                prof.export_chrome_trace(sys.argv[1])
                """, trace.toString());
        List<JsonNode> events = legacyEvents(trace);
        long optimizerSteps = events.stream().filter(e -> e.path("name").asText().startsWith("Optimizer.step#")).count();
        assertEquals(6, optimizerSteps);
        ProfileFacts f = ProfileReaders.discover().read(trace, ReadOptions.DEFAULT);
        assertEquals(IterationSummary.INFERRED_OPTIMIZER, f.iterationSummary().method());
        assertEquals(6, f.iterationSummary().total());
    }

    @Test
    void torchProfilerWithAScheduleWritesTheSameFormatAndItsActiveSteps() throws Exception {
        Path trace = dir.resolve("scheduled.json");
        TorchPython.run(dir, "record.py", MODEL + """
                from torch.profiler import profile, schedule
                def ready(p):
                    p.export_chrome_trace(sys.argv[1])
                with profile(schedule=schedule(wait=1, warmup=1, active=3, repeat=1), on_trace_ready=ready,
                             record_shapes=True) as prof:
                    for i in range(8):
                        step()
                        prof.step()
                """, trace.toString());
        List<JsonNode> events = legacyEvents(trace);
        long steps = events.stream().filter(e -> e.path("name").asText().startsWith("ProfilerStep#")).count();
        assertEquals(3, steps, "the schedule's active steps");
        ProfileFacts f = ProfileReaders.discover().read(trace, ReadOptions.DEFAULT);
        assertEquals(IterationSummary.STEP_MARKERS, f.iterationSummary().method());
        assertEquals(3, f.iterationSummary().total());
        // the legacy export has no argument values at all: no input shapes, whatever was asked for
        assertTrue(events.stream().allMatch(e -> e.path("args").isEmpty()));
        assertTrue(f.ops().stream().allMatch(op -> op.inputShapes() == null || op.inputShapes().isEmpty()), "no shapes invented");
    }
}
