package dlproflint.extract.nsys;

import dlproflint.facts.DistributedInfo;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which rank of which job an nsys export is, from the profiled process's environment, which nsys 2023.3 and later
 * record in {@code META_DATA_CAPTURE} ({@code PROCESS_0:ENVIRONMENT_VARIABLE} rows, {@code NAME="value"}): the
 * launchers' rank variables (torchrun's {@code RANK}/{@code WORLD_SIZE}, Open MPI's {@code OMPI_COMM_WORLD_*},
 * PMI's, Slurm's) and an id of the job run (torchelastic run id, scheduler job id, rendezvous address). An export
 * of a launcher that started every rank records none of these: it is not one rank.
 */
final class NsysDistributed {
    private static final List<String[]> RANK_AND_SIZE = List.of(
            new String[] {"RANK", "WORLD_SIZE"},
            new String[] {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
            new String[] {"PMIX_RANK", "PMIX_SIZE"},
            new String[] {"PMI_RANK", "PMI_SIZE"},
            new String[] {"SLURM_PROCID", "SLURM_NTASKS"});
    private static final List<String> JOB_IDS = List.of("TORCHELASTIC_RUN_ID", "SLURM_JOB_ID", "LSB_JOBID", "PBS_JOBID");

    private NsysDistributed() {
    }

    static DistributedInfo of(NsysDatabase db) throws SQLException {
        Map<String, String> env = environment(db);
        if (env.isEmpty()) return null;
        int rank = -1;
        int world = 0;
        for (String[] names : RANK_AND_SIZE) {
            int r = parse(env.get(names[0]));
            if (r < 0) continue;
            rank = r;
            world = Math.max(0, parse(env.get(names[1])));
            break;
        }
        String job = null;
        for (String k : JOB_IDS) {
            if (env.get(k) != null && !env.get(k).isBlank()) {
                job = k + "=" + env.get(k);
                break;
            }
        }
        if (job == null && env.get("MASTER_ADDR") != null) job = env.get("MASTER_ADDR") + ":" + env.getOrDefault("MASTER_PORT", "");
        if (rank < 0 && world <= 0) return null;
        return new DistributedInfo(rank, world, null, "environment", job, null);
    }

    /** The profiled process's environment variables, or an empty map when the export does not record them. */
    static Map<String, String> environment(NsysDatabase db) throws SQLException {
        Map<String, String> env = new HashMap<>();
        if (!db.has("META_DATA_CAPTURE") || !db.hasColumn("META_DATA_CAPTURE", "name")
                || !db.hasColumn("META_DATA_CAPTURE", "value")) {
            return env;
        }
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT value FROM META_DATA_CAPTURE WHERE name = 'PROCESS_0:ENVIRONMENT_VARIABLE'")) {
            while (rs.next()) {
                String v = rs.getString(1);
                if (v == null) continue;
                int eq = v.indexOf('=');
                if (eq <= 0) continue;
                String value = v.substring(eq + 1).trim();
                if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) value = value.substring(1, value.length() - 1);
                env.putIfAbsent(v.substring(0, eq).trim(), value);
            }
        }
        return env;
    }

    private static int parse(String v) {
        if (v == null) return -1;
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
