package dlproflint.extract.kineto;

import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.CollectiveCalls;
import dlproflint.facts.CollectiveKind;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.StepActivity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Collectives that run on the host, read from small traces written here (µs in the trace, ns in the facts): Gloo's
 * {@code gloo:*} work ranges on its worker threads, {@code record_param_comms} where a process records nothing else
 * and launched no communication kernel, and neither where the collective ran as an NCCL kernel.
 */
class HostCollectivesTest {
    @TempDir
    Path dir;

    private final List<String> events = new ArrayList<>();

    private void event(String cat, String name, double ts, double dur, int tid, String args) {
        events.add(String.format(Locale.ROOT, "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":1,\"tid\":%d,\"ts\":%s,"
                + "\"dur\":%s,\"args\":{%s}}", cat, name, tid, ts, dur, args));
    }

    private void kernel(String name, double ts, double dur, int correlation, double callTs) {
        event("cuda_runtime", "cudaLaunchKernel", callTs, 2, 10, "\"correlation\":" + correlation);
        events.add(String.format(Locale.ROOT, "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"%s\",\"pid\":0,\"tid\":7,\"ts\":%s,"
                + "\"dur\":%s,\"args\":{\"device\":0,\"stream\":7,\"correlation\":%d}}", name, ts, dur, correlation));
    }

    private ProfileFacts read() throws Exception {
        Path p = dir.resolve("t" + System.nanoTime() + ".json");
        Files.writeString(p, "{\"schemaVersion\":1,\"distributedInfo\":{\"backend\":\"gloo\",\"rank\":0,\"world_size\":2},"
                + "\"traceEvents\":[" + String.join(",\n", events) + "]}");
        return ProfileReaders.discover().read(p, ReadOptions.DEFAULT);
    }

    /**
     * Two steps of a DDP rank over Gloo with CUDA tensors: the buffer broadcasts run as two works at once (20-80,
     * 22-78 µs), a kernel 80-90, the gradient all-reduce 85-95 µs; the enqueueing {@code c10d::*} ops and the
     * {@code gpu_user_annotation} copies of the ranges are not collectives.
     */
    @Test
    void glooWorkRangesAreHostCollectivesWithTheirMessageSizes() throws Exception {
        for (int s = 0; s < 2; s++) {
            double b = 100.0 * s;
            event("user_annotation", "ProfilerStep#" + (5 + s), b, 100, 10, "");
            event("cpu_op", "c10d::broadcast_", b + 19, 1, 10, "");
            event("user_annotation", "gloo:broadcast", b + 20, 60, 21, "\"Input type\":[\"long int\"],\"Input Dims\":[[20]]");
            event("user_annotation", "gloo:broadcast", b + 22, 56, 22, "\"Input type\":[\"float\"],\"Input Dims\":[[30, 10]]");
            event("gpu_user_annotation", "gloo:broadcast", b + 20, 60, 7, "");
            kernel("volta_sgemm_128x64_nn", b + 80, 10, 200 + s, b + 78);
            event("cpu_op", "c10d::allreduce_", b + 84, 1, 30, "");
            event("user_annotation", "gloo:all_reduce", b + 85, 10, 21, "\"Input type\":[\"c10::BFloat16\"],\"Input Dims\":[[1000]]");
        }
        ProfileFacts f = read();
        assertEquals(List.of(new CollectiveCalls(5, CollectiveKind.ALL_REDUCE, true, 1, 10_000, 10_000, 2_000),
                        new CollectiveCalls(5, CollectiveKind.BROADCAST, true, 2, 116_000, 60_000, 20 * 8 + 300 * 4),
                        new CollectiveCalls(6, CollectiveKind.ALL_REDUCE, true, 1, 10_000, 10_000, 2_000),
                        new CollectiveCalls(6, CollectiveKind.BROADCAST, true, 2, 116_000, 60_000, 20 * 8 + 300 * 4)),
                f.collectiveCalls().stream().sorted((x, y) -> x.step() != y.step() ? Integer.compare(x.step(), y.step())
                        : x.kind().compareTo(y.kind())).toList());
        StepActivity s = f.stepActivity().get(0);
        assertEquals(10_000, s.computeNs());
        assertEquals(70_000, s.commNs(), "20-80 and 85-95 µs in flight");
        assertEquals(65_000, s.exposedCommNs(), "all but 85-90, beside the kernel");
        assertEquals(25_000, s.idleNs(), "0-20 and 95-100: no kernel and no collective");
    }

    /** Without {@code gloo:*} ranges and without communication kernels, record_param_comms is the collective. */
    @Test
    void recordParamCommsStandsInWhenNothingElseRecordsTheCollective() throws Exception {
        event("user_annotation", "ProfilerStep#1", 0, 100, 10, "");
        event("cpu_op", "record_param_comms", 10, 40, 10,
                "\"Collective name\":\"allreduce\",\"In msg nelems\":256,\"Out msg nelems\":256,\"dtype\":\"Float\"");
        event("cpu_op", "record_param_comms", 60, 1, 10, "\"Collective name\":\"wait\",\"In msg nelems\":0,\"dtype\":\"Byte\"");
        ProfileFacts f = read();
        assertEquals(List.of(new CollectiveCalls(1, CollectiveKind.ALL_REDUCE, true, 1, 40_000, 40_000, 1024)), f.collectiveCalls());
    }

    /** With NCCL the collective is the kernel; record_param_comms only enqueued it and is no host collective. */
    @Test
    void recordParamCommsAroundAnNcclKernelIsNotAHostCollective() throws Exception {
        event("user_annotation", "ProfilerStep#1", 0, 100, 10, "");
        event("cpu_op", "record_param_comms", 10, 5, 10,
                "\"Collective name\":\"allreduce\",\"In msg nelems\":256,\"Out msg nelems\":256,\"dtype\":\"Float\"");
        kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", 20, 30, 300, 12);
        ProfileFacts f = read();
        assertEquals(1, f.collectiveCalls().size());
        CollectiveCalls c = f.collectiveCalls().get(0);
        assertTrue(!c.host() && c.kind() == CollectiveKind.ALL_REDUCE && c.timeNs() == 30_000, c.toString());
    }

    @Test
    void tensorBytesFromShapesAndTypes() {
        assertEquals(9_646_480, KinetoNames.tensorBytes("[[2411620]]", "[\"float\"]"));
        assertEquals(20 * 8 + 6 * 2, KinetoNames.tensorBytes("[[20],[2,3]]", "[\"long int\",\"c10::Half\"]"));
        assertEquals(24, KinetoNames.tensorBytes("[[],[3]]", "[\"Scalar\",\"double\"]"), "a scalar argument is no tensor");
        assertEquals(-1, KinetoNames.tensorBytes("[[4]]", "[\"SomeStruct\"]"));
        assertEquals(-1, KinetoNames.tensorBytes(null, "[\"float\"]"));
    }
}
