package dlproflint.extract.kineto;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.facts.DistributedInfo;

import java.util.ArrayList;
import java.util.List;

/**
 * Which rank of which job a Kineto trace is: {@code distributedInfo} first (rank, world size, backend, process
 * groups), then the communicator data in collective metadata ({@code Rank}, the default group's
 * {@code Group size}), then environment-style metadata keys ({@code RANK}, {@code WORLD_SIZE}). A job id is taken
 * from scheduler metadata some traces carry ({@code mast_job_name}, {@code tw_job}, {@code job_id}, ...).
 */
final class KinetoDistributed {
    private static final List<String> JOB_KEYS = List.of("mast_job_name", "tw_job", "job_name", "job_id", "jobId",
            "SLURM_JOB_ID", "TORCHELASTIC_RUN_ID");

    private KinetoDistributed() {
    }

    static DistributedInfo of(KinetoAggregator a) {
        int rank = -1;
        int world = 0;
        String source = null;
        String backend = null;
        String groups = null;
        JsonNode d = a.distributed;
        if (d != null && d.isObject()) {
            rank = d.path("rank").asInt(-1);
            world = Math.max(0, d.path("world_size").asInt(0));
            backend = d.hasNonNull("backend") ? d.path("backend").asText() : null;
            groups = groups(d.path("pg_config"));
            if (rank >= 0 || world > 0) source = "distributedInfo";
        }
        if (rank < 0 && a.commRank != TraceEvent.NONE) {
            rank = (int) a.commRank;
            source = "nccl-communicator";
        }
        if (world <= 0 && a.defaultGroupSize != TraceEvent.NONE && a.defaultGroupSize > 0) {
            world = (int) Math.min(Integer.MAX_VALUE, a.defaultGroupSize);
            if (source == null) source = "nccl-communicator";
        }
        if (rank < 0) {
            int r = intKey(a, "RANK", "rank");
            if (r >= 0) {
                rank = r;
                source = "environment";
            }
        }
        if (world <= 0) {
            int w = intKey(a, "WORLD_SIZE", "world_size");
            if (w > 0) {
                world = w;
                if (source == null) source = "environment";
            }
        }
        String job = null;
        for (String k : JOB_KEYS) {
            String v = a.topLevel.get(k);
            if (v != null && !v.isBlank()) {
                job = v;
                break;
            }
        }
        if (rank < 0 && world <= 0 && backend == null && job == null) return null;
        return new DistributedInfo(rank, world, backend, source, job, groups);
    }

    private static int intKey(KinetoAggregator a, String... keys) {
        for (String k : keys) {
            String v = a.topLevel.get(k);
            if (v == null) continue;
            try {
                return Integer.parseInt(v.trim());
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        return -1;
    }

    /** {@code name:size} of each process group, in the trace's order: {@code 0:300,1:8}. */
    private static String groups(JsonNode pgConfig) {
        if (pgConfig == null || !pgConfig.isArray() || pgConfig.isEmpty()) return null;
        List<String> parts = new ArrayList<>();
        for (JsonNode pg : pgConfig) {
            if (parts.size() == 64) break;
            parts.add(pg.path("pg_name").asText("?") + ":" + pg.path("pg_size").asInt(0));
        }
        return String.join(",", parts);
    }
}
