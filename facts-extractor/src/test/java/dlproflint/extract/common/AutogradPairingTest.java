package dlproflint.extract.common;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.Direction;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.synth.GpuModel;
import dlproflint.synth.Workload;
import dlproflint.synth.WorkloadSpec;
import dlproflint.testing.Corpus;
import dlproflint.testing.KinetoEvents;
import dlproflint.testing.SqliteVariant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DLProf's op direction and forward-backward pairing by autograd sequence number, in every format: the
 * backward node that carries the number N reports as the forward op that carried N, in the backward
 * direction. nsys ({@code emit_nvtx} ranges {@code X, seq = N} and PyTorch 1.0-1.4's {@code stashed seq = N}),
 * Kineto ({@code Sequence number} and {@code Fwd thread id} args, or backward names when a trace has no thread
 * ids); DLProf databases keep DLProf's own direction column.
 */
class AutogradPairingTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static Map<String, OpFact> byName(ProfileFacts f) {
        return f.ops().stream().collect(Collectors.toMap(OpFact::name, o -> o, (a, b) -> a));
    }

    @Test
    void kinetoBackwardNodesTakeTheirForwardOpsType() throws Exception {
        Path trace = Corpus.file("hta/tests/data/nccl_parser_config/nccl_data.json.gz");
        check(ProfileReaders.discover().read(trace, ReadOptions.DEFAULT));
    }

    /** The same trace without {@code Fwd thread id} (as some exporters drop it): backward names decide, numbers pair. */
    @Test
    void kinetoPairingWithoutThreadIds() throws Exception {
        Path source = Corpus.file("hta/tests/data/nccl_parser_config/nccl_data.json.gz");
        JsonNode doc;
        try (var in = KinetoEvents.open(source)) {
            doc = JSON.readTree(in);
        }
        int removed = 0;
        for (JsonNode e : doc.get("traceEvents")) {
            if (e.path("args").has("Fwd thread id")) {
                ((ObjectNode) e.get("args")).remove("Fwd thread id");
                removed++;
            }
        }
        assertTrue(removed > 1000, "thread ids removed: " + removed);
        Path variant = dir.resolve("no-fwd-thread.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(variant))) {
            JSON.writeValue(out, doc);
        }
        check(ProfileReaders.discover().read(variant, ReadOptions.DEFAULT));
    }

    private static void check(ProfileFacts f) {
        Map<String, OpFact> ops = byName(f);
        // seq 1080: aten::div (forward) / DivBackward1 (backward), checked by hand in the trace
        assertEquals(Direction.FPROP, ops.get("aten::div").direction());
        for (String node : List.of("DivBackward1", "autograd::engine::evaluate_function: DivBackward1")) {
            assertEquals(Direction.BPROP, ops.get(node).direction(), node);
            assertEquals("div", ops.get(node).type(), node);
        }
        assertEquals("conv2d", ops.get("ConvolutionBackward0").type());
        assertEquals("batch_norm", ops.get("CudnnBatchNormBackward0").type(), "the outermost forward op with the number");
        assertEquals("addmm", ops.get("AddmmBackward0").type());
        assertTrue(f.ops().stream().filter(o -> o.name().endsWith("Backward0")).allMatch(o -> o.direction() == Direction.BPROP));
    }

    @Test
    void nsysBackwardRangesReportAsTheirForwardOp() throws Exception {
        Path f = dir.resolve("train.sqlite");
        Workload.generate(spec().build(), f);
        assertPaired(ProfileReaders.discover().read(f, ReadOptions.DEFAULT));
        // PyTorch 1.0-1.4 decorated backward ranges with "stashed seq"
        Path legacy = SqliteVariant.of(f, dir, "stashed-seq",
                "UPDATE NVTX_EVENTS SET text = replace(text, ', seq = ', ', stashed seq = ') WHERE text LIKE '%Backward%'");
        assertPaired(ProfileReaders.discover().read(legacy, ReadOptions.DEFAULT));
        // with DLProf's plugin markers the forward op is named by its call site, and so is its backward
        Path plugin = dir.resolve("plugin.sqlite");
        Workload.generate(spec().dlprofMarkers(true).build(), plugin);
        ProfileFacts p = ProfileReaders.discover().read(plugin, ReadOptions.DEFAULT);
        Set<String> forwardNames = p.ops().stream().filter(o -> o.direction() == Direction.FPROP).map(OpFact::name)
                .collect(Collectors.toSet());
        List<OpFact> backward = p.ops().stream().filter(o -> o.direction() == Direction.BPROP).toList();
        assertTrue(!backward.isEmpty());
        for (OpFact o : backward) assertTrue(forwardNames.contains(o.name()), "backward op named as a forward one: " + o.name());
    }

    private static WorkloadSpec.Builder spec() {
        return WorkloadSpec.builder().gpu(GpuModel.A100_SXM4_40GB).iterations(3).opsPerIteration(12).kernelsPerOp(0)
                .backward(true).tensorCores(false).emitNvtx(true).seed(11);
    }

    private static void assertPaired(ProfileFacts f) {
        List<OpFact> backward = f.ops().stream().filter(o -> o.direction() == Direction.BPROP).toList();
        assertTrue(backward.size() >= 3, "backward ops: " + f.ops());
        for (OpFact o : backward) {
            assertTrue(!o.type().toLowerCase().contains("backward"), "paired with its forward op: " + o);
            assertTrue(f.ops().stream().anyMatch(x -> x.direction() == Direction.FPROP && x.name().equals(o.name())
                    && x.type().equals(o.type())), "the same op name forward: " + o.name());
        }
        assertTrue(backward.stream().anyMatch(o -> o.type().equals("conv2d") && o.tcEligible()),
                "a backward convolution is a convolution: eligible for tensor cores");
    }
}
