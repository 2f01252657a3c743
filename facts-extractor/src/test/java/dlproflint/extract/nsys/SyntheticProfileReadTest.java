package dlproflint.extract.nsys;

import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.ExtractionWarning;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.KernelFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.synth.GpuModel;
import dlproflint.synth.NsysSchema;
import dlproflint.synth.Workload;
import dlproflint.synth.WorkloadSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The nsys reader on generated profiles whose true counts are known by construction. */
class SyntheticProfileReadTest {
    @TempDir
    Path dir;

    private static WorkloadSpec.Builder spec(NsysSchema schema) {
        return WorkloadSpec.builder().schema(schema).gpu(GpuModel.A100_SXM4_40GB).gpus(2).installedGpus(3).iterations(4)
                .opsPerIteration(10).kernelsPerOp(3).backward(true).tensorCores(true).inputBytes(1 << 20).seed(5);
    }

    @Test
    void twoProcessesWithOverlappingCorrelationIdsAreMatchedPerProcess() throws Exception {
        Path f = dir.resolve("ddp.sqlite");
        Workload.Result r = Workload.generate(spec(NsysSchema.NSYS_2022_1).build(), f);
        ProfileFacts facts = ProfileReaders.discover().read(f, new ReadOptions("aten::to", null, null));
        List<String> codes = facts.warnings().stream().map(ExtractionWarning::code).toList();
        assertTrue(!codes.contains("gpu-without-api") && !codes.contains("duplicate-correlation"), "warnings: " + facts.warnings());
        assertEquals(3, facts.gpus().size());
        assertEquals(List.of(120L, 120L), facts.gpuUsage().stream().filter(g -> g.kernelCount() > 0).map(GpuUsage::kernelCount).toList());
        assertEquals(r.kernels(), facts.kernels().stream().mapToLong(k -> k.gpuTime().count()).sum());
        assertTrue(facts.kernels().stream().filter(k -> k.name().contains("h884")).allMatch(KernelFact::usesTc),
                "tensor-core kernels recognised by name");
        assertTrue(facts.kernels().stream().filter(k -> k.name().contains("elementwise")).noneMatch(KernelFact::usesTc),
                "elementwise kernels never use tensor cores");
        assertTrue(facts.kernels().stream().anyMatch(k -> k.name().contains("h884")));
        assertEquals(r.nvtxEvents(), facts.markers().nvtxRanges());
        assertEquals(5, facts.iterations().size(), "4 key-node instances split 5 intervals");
    }

    /** Per-iteration kernel rows itemise every launch of every aggregated iteration, per (op, kernel, device). */
    @Test
    void iterationKernelRowsAddUpToEachIterationsLaunches() throws Exception {
        Path f = dir.resolve("it.sqlite");
        Workload.generate(spec(NsysSchema.NSYS_2022_1).build(), f);
        ProfileFacts facts = ProfileReaders.discover().read(f, new ReadOptions("aten::to", 1, 3));
        assertTrue(facts.warnings().stream().noneMatch(w -> w.code().equals("iteration-kernels-sampled")));
        java.util.Map<Integer, Long> calls = new java.util.TreeMap<>();
        for (dlproflint.facts.IterationKernel ik : facts.iterationKernels()) {
            calls.merge(ik.iteration(), ik.calls(), Long::sum);
            assertTrue(ik.iteration() >= 1 && ik.iteration() <= 3, "aggregated iterations only: " + ik);
            KernelFact k = facts.kernels().stream().filter(x -> x.opId().equals(ik.opId()) && x.name().equals(ik.name())
                    && x.deviceId() == ik.deviceId()).findFirst().orElseThrow(() -> new AssertionError("no kernel row for " + ik));
            assertEquals(k.usesTc(), ik.usesTc());
            assertTrue(ik.firstStartNs() >= facts.iterations().get(ik.iteration()).startNs(), "first launch inside its iteration");
        }
        for (int i = 1; i <= 3; i++) {
            assertEquals(facts.iterations().get(i).kernelCount(), calls.get(i), "launches of iteration " + i);
        }
        // the kernel rows of the aggregated range are the sum of the per-iteration rows
        assertEquals(facts.kernels().stream().mapToLong(KernelFact::calls).sum(),
                facts.iterationKernels().stream().mapToLong(dlproflint.facts.IterationKernel::calls).sum());
        assertEquals(facts.kernels().stream().mapToLong(k -> k.gpuTime().total()).sum(),
                facts.iterationKernels().stream().mapToLong(dlproflint.facts.IterationKernel::gpuTimeNs).sum());
    }

    @Test
    void theSameRunExportedBy2022And2025NsysGivesTheSameFacts() throws Exception {
        Path old = dir.resolve("2022.sqlite");
        Path neu = dir.resolve("2025.sqlite");
        Workload.generate(spec(NsysSchema.NSYS_2022_1).build(), old);
        Workload.generate(spec(NsysSchema.NSYS_2025_5).build(), neu);
        ReadOptions o = new ReadOptions("aten::to", null, null);
        ProfileFacts a = ProfileReaders.discover().read(old, o);
        ProfileFacts b = ProfileReaders.discover().read(neu, o);
        assertEquals("2.9.1", a.profile().schemaVersion());
        assertEquals("3.24.0", b.profile().schemaVersion());
        assertEquals(a.ops(), b.ops());
        assertEquals(a.kernels(), b.kernels());
        assertEquals(a.iterations(), b.iterations());
        assertEquals(a.breakdown(), b.breakdown());
        assertEquals(a.gpuUsage(), b.gpuUsage());
        assertEquals(a.memcpyStats(), b.memcpyStats());
    }
}
