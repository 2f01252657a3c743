package dlproflint.extract.distributed;

import dlproflint.extract.ProfileReaders;
import dlproflint.extract.ReadOptions;
import dlproflint.facts.CollectiveCalls;
import dlproflint.facts.CollectiveKind;
import dlproflint.facts.DistributedInfo;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.StepActivity;
import dlproflint.testing.Corpus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every real multi-rank trace of the corpus: the rank and world size it records, where they were read, and its
 * communication kernels classified by collective (calls per kind over every step), as counted by hand with an
 * independent script over the trace: kernels launched in the capture (each belongs to the step that launched it;
 * those whose correlation id lies below every launch call's were launched before it), classified by their own
 * metadata, else the {@code nccl:*} call open when they were launched, else their name. (NCCL runs all-to-all,
 * and in the TorchRec traces even some all-reduces, as {@code SendRecv} kernels: the name alone would be wrong.)
 * Gloo jobs' collectives run on the host: their {@code gloo:*} work ranges starting inside the profiled steps,
 * counted by the same script, are {@code host:KIND}.
 */
class MultiRankCorpusTest {
    static Stream<Arguments> traces() {
        // the four ranks of the H200 job, DDP over Gloo: per rank 3 all-reduces and 2 buffer broadcasts in each of 4 steps
        Stream<Arguments> gloo = java.util.stream.IntStream.range(0, 4).mapToObj(r -> Arguments.of(
                "pytorch-h200-2026/job_straggler_rank1/rank" + r + ".pt.trace.json.gz", r, 4, "distributedInfo", "gloo",
                "host:ALL_REDUCE=12,host:BROADCAST=8"));
        return Stream.concat(gloo, Stream.of(
                // file, rank, world, source, backend, {kind=calls}
                Arguments.of("hta/tests/data/trace_filter/sampled_rank-0.json.gz", 0, 128, "distributedInfo", "nccl",
                        "ALL_TO_ALL=4,ALL_REDUCE=4,ALL_GATHER=2"),
                Arguments.of("hta/tests/data/trace_filter/sampled_rank-1.json.gz", 1, 128, "distributedInfo", "nccl",
                        "ALL_TO_ALL=4,ALL_REDUCE=4,ALL_GATHER=2"),
                Arguments.of("hta/tests/data/trace_diff/control/control.json.gz", 3, 8, "distributedInfo", "nccl",
                        "ALL_REDUCE=18,ALL_TO_ALL=42"),
                Arguments.of("hta/tests/data/trace_diff/test/test.json.gz", 1, 2, "distributedInfo", "nccl",
                        "ALL_REDUCE=18,ALL_TO_ALL=42"),
                Arguments.of("hta/tests/data/negative_queue_length_values_check/rank0.json.gz", 0, 16, "distributedInfo",
                        "nccl", "ALL_REDUCE=10,ALL_GATHER=10,REDUCE_SCATTER=10,ALL_TO_ALL=45"),
                Arguments.of("hta/tests/data/nccl_parser_config/nccl_data.json.gz", 0, 2, "distributedInfo", "nccl",
                        "ALL_REDUCE=15,BROADCAST=6"),
                Arguments.of("hta/tests/data/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", 34, 300,
                        "distributedInfo", "gloo", "host:ALL_REDUCE=2"),
                Arguments.of("hta/tests/data/trace_file_list/inference_rank_1.json.gz", 1, 0, "distributedInfo", null, ""),
                Arguments.of("hta/tests/data/distributed_info_unavailable/distributed_info_not_found.json.gz", -1, 0, null,
                        null, ""),
                Arguments.of("hta/tests/data/df_index_resolver/df_index_resolver.json.gz", 1, 2, "distributedInfo", "nccl",
                        "ALL_REDUCE=2020")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("traces")
    void rankWorldAndCollectives(String file, int rank, int world, String source, String backend, String kinds)
            throws Exception {
        ProfileFacts f = ProfileReaders.discover().read(Corpus.file(file), ReadOptions.DEFAULT);
        DistributedInfo d = f.rank();
        if (source == null) {
            assertNull(d, "no rank recorded");
        } else {
            assertEquals(rank, d.rank(), "rank");
            assertEquals(world, d.worldSize(), "world size");
            assertEquals(source, d.source(), "source");
            assertEquals(backend, d.backend(), "backend");
        }
        Map<String, Long> calls = new TreeMap<>();
        for (CollectiveCalls c : f.collectiveCalls()) {
            calls.merge((c.host() ? "host:" : "") + c.kind().name(), c.calls(), Long::sum);
            assertTrue(c.busyNs() <= c.timeNs() && c.busyNs() > 0, "in flight at most their summed time: " + c);
        }
        Map<String, Long> want = new TreeMap<>();
        if (!kinds.isEmpty()) {
            for (String kv : kinds.split(",")) {
                String[] p = kv.split("=");
                CollectiveKind.valueOf(p[0].replace("host:", ""));
                want.put(p[0], Long.parseLong(p[1]));
            }
        }
        assertEquals(want, calls, "collectives by kind (host: run on the host)");
        for (StepActivity s : f.stepActivity()) {
            assertTrue(s.exposedCommNs() <= s.commNs(), "exposed is part of the communication: " + s);
            assertTrue(s.computeNs() >= 0 && s.idleNs() >= 0, s.toString());
        }
    }
}
