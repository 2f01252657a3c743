package dlproflint.extract.kineto;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.ProfileFacts;
import dlproflint.testing.Corpus;
import dlproflint.testing.KinetoEvents;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GPU identity in Kineto traces: {@code deviceProperties}, the May-2021 {@code computeProperties} variant,
 * and, when a trace has neither, what its kernels prove (a generation lower bound from the kernel catalogue,
 * the SM count from the profiler's blocks/warps per SM) - or a documented unknown, never compute capability 0.0.
 */
class GpuIdentityTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static ProfileFacts read(Path p) throws Exception {
        return ProfileReaders.discover().read(p, ReadOptions.DEFAULT);
    }

    @Test
    void computePropertiesOfMay2021AreRead() throws Exception {
        GpuInfo g = read(Corpus.file("kineto-tb-plugin/790be856/tb_plugin/test/gpu_metrics_input.json")).gpus().get(0);
        assertEquals("Tesla V100-DGXS-32GB", g.name());
        assertEquals(GpuInfo.Capability.REPORTED, g.capability());
        assertEquals("7.0", g.computeCapability());
        assertEquals(80, g.smCount());
    }

    /** The 2021 trace without device properties ran volta_* cuBLAS/cuDNN kernels with "warps per SM". */
    @Test
    void withoutPropertiesTheKernelsSpeak() throws Exception {
        ProfileFacts f = read(Corpus.file("kineto-tb-plugin/515e6115/tb_plugin/samples/resnet50_num_workers_0/worker0.pt.trace.json.gz"));
        GpuInfo g = f.gpus().get(0);
        assertEquals(GpuInfo.UNKNOWN_NAME, g.name(), "the product name is never guessed");
        assertEquals(GpuInfo.Capability.AT_LEAST, g.capability());
        assertEquals(">=7.0", g.computeCapability());
        assertEquals(GpuInfo.TensorCoreSupport.YES, g.tensorCores(), "Volta or newer");
        assertEquals(80, g.smCount(), "a V100 of the TensorBoard plugin's demo, from warps per SM");
    }

    /** A modern A100 trace with its device properties removed: the estimate matches what they said. */
    @Test
    void removedPropertiesAreRecoveredAsFarAsTheKernelsProve() throws Exception {
        Path source = Corpus.file("hta/tests/data/nccl_parser_config/nccl_data.json.gz");
        GpuInfo recorded = read(source).gpus().get(0);
        JsonNode doc;
        try (var in = KinetoEvents.open(source)) {
            doc = JSON.readTree(in);
        }
        ((ObjectNode) doc).remove("deviceProperties");
        Path variant = dir.resolve("no-device-properties.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(variant))) {
            JSON.writeValue(out, doc);
        }
        ProfileFacts f = read(variant);
        assertEquals(1, f.gpus().size(), "only the device that ran work is known");
        GpuInfo g = f.gpus().get(0);
        assertEquals(GpuInfo.Capability.AT_LEAST, g.capability());
        assertEquals(">=8.0", g.computeCapability(), "sm80 kernels ran on it (recorded: " + recorded.computeCapability() + ")");
        assertEquals(recorded.smCount(), g.smCount(), "blocks per SM of its largest grid");
        assertEquals(0, g.totalMemoryBytes(), "memory size unknown");
    }

    /** Hand-trimmed fixture with a few elementwise kernels and no properties: unknown, and said so. */
    @Test
    void nothingToGoByIsUnknownNotZero() throws Exception {
        GpuInfo g = read(Corpus.file("hta/tests/data/trace_compare/base/base.json.gz")).gpus().get(0);
        assertEquals(GpuInfo.Capability.UNKNOWN, g.capability());
        assertEquals("unknown", g.computeCapability());
        assertEquals(GpuInfo.TensorCoreSupport.UNKNOWN, g.tensorCores());
        assertTrue(!g.hasTensorCores() && !g.lacksTensorCores(), "rules treat it as unknown");
    }
}
