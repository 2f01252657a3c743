package dlproflint.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Timeline transformations of real profiles (issue 23), applied to copies: what a profile looks like when its
 * ranges touch, or when the GPU runs behind the host. They change timestamps only, never what ran or who launched
 * it, so a reader that attributes GPU work by launch must give the same ops, steps and figures.
 */
public final class TimelineVariants {
    private TimelineVariants() {
    }

    /**
     * Makes consecutive sibling NVTX push/pop ranges of every thread touch: the earlier one ends at the very
     * nanosecond the later one starts (as back-to-back {@code push/pop} pairs of a generated profile do). A pair is
     * moved only when no CUDA API call of the thread lies in the gap between them, so every call keeps its ranges;
     * starts stay where they were, so no range opens before what caused it (a backward op before its forward op).
     *
     * @return how many ranges were moved
     */
    public static int touchSiblingRanges(Path db) throws SQLException {
        int moved = 0;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.setAutoCommit(false);
            Map<Long, List<long[]>> byThread = new HashMap<>(); // rowid, start, end
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT rowid, start, end, globalTid FROM NVTX_EVENTS "
                    + "WHERE eventType = 59 AND start IS NOT NULL AND end IS NOT NULL ORDER BY globalTid, start, end DESC")) {
                while (rs.next()) byThread.computeIfAbsent(rs.getLong(4), t -> new ArrayList<>())
                        .add(new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)});
            }
            try (PreparedStatement upd = c.prepareStatement("UPDATE NVTX_EVENTS SET end = ? WHERE rowid = ?")) {
                for (Map.Entry<Long, List<long[]>> t : byThread.entrySet()) {
                    Calls calls = calls(c, t.getKey());
                    ArrayDeque<long[]> open = new ArrayDeque<>();
                    // the last range closed at each depth (index = depth of its parent + 1)
                    Map<Integer, long[]> lastClosed = new HashMap<>();
                    for (long[] r : t.getValue()) {
                        while (!open.isEmpty() && open.peek()[2] <= r[1]) {
                            long[] done = open.pop();
                            lastClosed.put(open.size(), done);
                            lastClosed.keySet().removeIf(d -> d > open.size());
                        }
                        long[] sibling = lastClosed.remove(open.size());
                        if (sibling != null && sibling[2] < r[1] && !calls.within(sibling[2], r[1])) {
                            upd.setLong(1, r[1]);
                            upd.setLong(2, sibling[0]);
                            upd.executeUpdate();
                            moved++;
                        }
                        open.push(r);
                    }
                }
            }
            c.commit();
        }
        return moved;
    }

    /** One thread's CUDA API calls: their starts, ascending, and the latest end among the calls up to each. */
    private record Calls(long[] starts, long[] maxEnd) {
        /** Whether a call overlaps the open gap {@code (from, to)}: one that starts before {@code to} and ends after {@code from}. */
        boolean within(long from, long to) {
            int i = Arrays.binarySearch(starts, to);
            if (i < 0) i = -i - 1;
            while (i > 0 && starts[i - 1] >= to) i--;
            return i > 0 && maxEnd[i - 1] > from;
        }
    }

    private static Calls calls(Connection c, long tid) throws SQLException {
        List<long[]> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT start, end FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE globalTid = ? "
                + "ORDER BY start")) {
            ps.setLong(1, tid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) rows.add(new long[] {rs.getLong(1), rs.getLong(2)});
            }
        } catch (SQLException e) {
            if (!String.valueOf(e.getMessage()).contains("no such table")) throw e;
        }
        long[] starts = new long[rows.size()];
        long[] maxEnd = new long[rows.size()];
        for (int i = 0; i < starts.length; i++) {
            starts[i] = rows.get(i)[0];
            maxEnd[i] = Math.max(i == 0 ? Long.MIN_VALUE : maxEnd[i - 1], rows.get(i)[1]);
        }
        return new Calls(starts, maxEnd);
    }

    // ------------------------------------------------------------------ the GPU behind the host

    /** The step a moment belongs to, by the steps' CPU window starts (the readers' rule: before the first, the first). */
    static int stepOf(long[] stepStarts, long t) {
        int i = Arrays.binarySearch(stepStarts, t);
        if (i < 0) i = -i - 2;
        while (i >= 0 && i + 1 < stepStarts.length && stepStarts[i + 1] == t) i++;
        return Math.max(0, i);
    }

    /**
     * A Kineto trace whose GPU falls behind its host: every GPU activity (kernels, copies, memsets, and the
     * {@code gpu_user_annotation} projections) launched in step {@code s} is delayed by {@code (s + 1) × deltaNs}, so
     * the GPU ends several steps behind. Each stream keeps its order and every activity its duration; an activity without
     * its launch call moves with the last call before it in CUDA's numbering (a launch the trace lost), and stays where
     * it is below every call (launched before the capture). Steps are the CPU windows a reader found
     * ({@code stepStarts}, trace clock in ns since {@code baseTimeNanoseconds}).
     */
    public static Path kinetoGpuLag(Path source, Path dir, String name, long[] stepStarts, long deltaNs) throws IOException {
        JsonNode trace = ProfileVariants.readTrace(source);
        List<JsonNode> events = ProfileVariants.events(trace);
        java.util.TreeMap<Long, Double> launchTs = new java.util.TreeMap<>();
        Map<Long, Double> annotationTs = new HashMap<>();
        for (JsonNode e : events) {
            String cat = e.path("cat").asText("").toLowerCase(Locale.ROOT);
            if (cat.equals("cuda_runtime") || cat.equals("cuda_driver") || cat.equals("runtime")) {
                JsonNode c = e.path("args").path("correlation");
                if (c.canConvertToLong() && c.asLong() != 0) launchTs.put(c.asLong(), e.path("ts").asDouble());
            } else if (cat.equals("user_annotation") || cat.equals("cpu_op") || cat.equals("operator")) {
                JsonNode x = e.path("args").path("External id");
                if (x.canConvertToLong()) annotationTs.put(x.asLong(), e.path("ts").asDouble());
            }
        }
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode e : events) {
            String cat = e.path("cat").asText("").toLowerCase(Locale.ROOT);
            Double at = null;
            if (cat.equals("kernel") || cat.equals("gpu_memcpy") || cat.equals("gpu_memset") || cat.equals("memcpy")
                    || cat.equals("memset")) {
                // the launch call, or the last one before it in CUDA's numbering (a launch the trace lost)
                JsonNode c = e.path("args").path("correlation");
                Map.Entry<Long, Double> call = c.canConvertToLong() ? launchTs.floorEntry(c.asLong()) : null;
                at = call == null ? null : call.getValue();
            } else if (cat.equals("gpu_user_annotation")) {
                JsonNode x = e.path("args").path("External id");
                at = x.canConvertToLong() ? annotationTs.get(x.asLong()) : null;
            }
            if (at == null || !e.isObject() || !e.has("ts")) {
                out.add(e);
                continue;
            }
            int step = stepOf(stepStarts, Math.round(at * 1000)); // ts: the trace's clock in µs
            ObjectNode copy = ((ObjectNode) e).deepCopy();
            copy.put("ts", e.path("ts").asDouble() + (step + 1) * deltaNs / 1000.0);
            out.add(copy);
        }
        return ProfileVariants.writeTrace(trace, out, dir, name);
    }

    /**
     * An nsys export whose GPU falls behind its host: every kernel, copy and memset launched in step {@code s} (its
     * CUDA API call started in step {@code s}'s CPU window) starts and ends {@code (s + 1) × deltaNs} later. Each
     * stream keeps its order, every activity its duration; work without its launch call moves with the last call before
     * it in CUDA's numbering (a launch the export lost), and stays where it is below every call (before the capture).
     */
    public static void nsysGpuLag(Path db, long[] stepStarts, long deltaNs) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            try (ResultSet rs = c.getMetaData().getTables(null, null, "CUPTI_ACTIVITY_KIND_RUNTIME", null)) {
                if (!rs.next()) return; // no launch calls: nothing to delay by its launch
            }
            c.setAutoCommit(false);
            st.execute("CREATE TEMP TABLE step_start (i INTEGER, start INTEGER)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO step_start VALUES (?, ?)")) {
                for (int i = 0; i < stepStarts.length; i++) {
                    ps.setInt(1, i);
                    ps.setLong(2, stepStarts[i]);
                    ps.executeUpdate();
                }
            }
            st.execute("CREATE TEMP TABLE launch_delay AS SELECT correlationId AS corr, (globalTid >> 24) & 16777215 AS pid, "
                    + "(COALESCE((SELECT MAX(i) FROM step_start s WHERE s.start <= r.start), 0) + 1) * " + deltaNs + " AS delay "
                    + "FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE correlationId IS NOT NULL");
            st.execute("CREATE INDEX temp.launch_delay_corr ON launch_delay (pid, corr)");
            for (String t : List.of("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET")) {
                try (ResultSet rs = c.getMetaData().getTables(null, null, t, null)) {
                    if (!rs.next()) continue;
                }
                String delay = "COALESCE((SELECT d.delay FROM launch_delay d WHERE d.pid = (" + t + ".globalPid >> 24) & 16777215"
                        + " AND d.corr <= " + t + ".correlationId ORDER BY d.corr DESC LIMIT 1), 0)";
                st.execute("UPDATE " + t + " SET start = start + " + delay + ", end = end + " + delay);
            }
            c.commit();
        }
    }

    /**
     * A DLProf database whose GPU falls behind its host: every kernel of iteration {@code i} (by DLProf's own
     * kernel-to-iteration table) runs {@code (i + 1) × deltaNs} later, copies and memsets of the iteration their API
     * call started in too.
     */
    public static void dldbGpuLag(Path db, long deltaNs) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("CREATE TEMP TABLE iteration_index AS SELECT iter_value, start_time, "
                    + "(SELECT COUNT(*) FROM iteration_list l2 WHERE l2.aggr_id = l.aggr_id AND l2.iter_value < l.iter_value) AS i "
                    + "FROM iteration_list l WHERE aggr_id = (SELECT MAX(aggr_id) FROM iteration_list)");
            st.execute("UPDATE read_only_kernels SET gpu_start = gpu_start + (1 + COALESCE((SELECT MAX(x.i) FROM "
                    + "kernel_iteration_node n JOIN iteration_index x ON x.iter_value = n.iter_value WHERE n.read_only_kernel_id "
                    + "= read_only_kernels.id), 0)) * " + deltaNs + ", gpu_stop = gpu_stop + (1 + COALESCE((SELECT MAX(x.i) FROM "
                    + "kernel_iteration_node n JOIN iteration_index x ON x.iter_value = n.iter_value WHERE n.read_only_kernel_id "
                    + "= read_only_kernels.id), 0)) * " + deltaNs);
            for (String t : List.of("read_only_memcpys", "read_only_memsets")) {
                try (ResultSet rs = c.getMetaData().getTables(null, null, t, null)) {
                    if (!rs.next()) continue;
                }
                String delay = "(1 + COALESCE((SELECT MAX(x.i) FROM iteration_index x WHERE x.start_time <= " + t
                        + ".api_start), 0)) * " + deltaNs;
                st.execute("UPDATE " + t + " SET gpu_start = gpu_start + " + delay + ", gpu_stop = gpu_stop + " + delay);
            }
            c.commit();
        }
    }

    // ------------------------------------------------------------------ a capture that includes its warm-up

    /**
     * A Kineto trace whose first step is a warm-up: its kernels run {@code factor} times longer, and {@code extra}
     * autotuning kernels (cuBLAS/cuDNN trial GEMMs, each with its launch call in the first step) run after them.
     * Every later GPU activity moves later by the time added, so each stream keeps its order and nothing overlaps
     * that did not. The first step is the first {@code ProfilerStep#N} range.
     */
    public static Path kinetoWarmUp(Path source, Path dir, String name, double factor, int extra) throws IOException {
        JsonNode trace = ProfileVariants.readTrace(source);
        List<JsonNode> events = new ArrayList<>(ProfileVariants.events(trace));
        double stepStart = Double.MAX_VALUE;
        double stepEnd = 0;
        JsonNode firstStep = null;
        for (JsonNode e : events) {
            if (!"user_annotation".equals(e.path("cat").asText()) || !e.path("name").asText().startsWith("ProfilerStep#")) continue;
            if (e.path("ts").asDouble() < stepStart) {
                stepStart = e.path("ts").asDouble();
                stepEnd = stepStart + e.path("dur").asDouble();
                firstStep = e;
            }
        }
        if (firstStep == null) throw new IllegalArgumentException(source + " has no ProfilerStep");
        Map<Long, Double> launchTs = new HashMap<>();
        long maxCorr = 0;
        JsonNode aLaunch = null;
        for (JsonNode e : events) {
            String cat = e.path("cat").asText();
            if (cat.equals("cuda_runtime") || cat.equals("cuda_driver")) {
                JsonNode c = e.path("args").path("correlation");
                if (c.canConvertToLong()) {
                    launchTs.put(c.asLong(), e.path("ts").asDouble());
                    maxCorr = Math.max(maxCorr, c.asLong());
                    if (aLaunch == null && e.path("name").asText().startsWith("cudaLaunchKernel")) aLaunch = e;
                }
            }
        }
        // GPU activities in start order: stretch the warm-up step's kernels, move everything after by the time added
        List<ObjectNode> gpu = new ArrayList<>();
        List<JsonNode> rest = new ArrayList<>();
        for (JsonNode e : events) {
            String cat = e.path("cat").asText();
            boolean isGpu = cat.equals("kernel") || cat.equals("gpu_memcpy") || cat.equals("gpu_memset")
                    || cat.equals("gpu_user_annotation");
            if (isGpu && e.isObject()) gpu.add(((ObjectNode) e).deepCopy());
            else rest.add(e);
        }
        gpu.sort((x, y) -> Double.compare(x.path("ts").asDouble(), y.path("ts").asDouble()));
        double added = 0;
        double warmUpGpuEnd = 0;
        JsonNode aKernel = null;
        for (ObjectNode g : gpu) {
            double ts = g.path("ts").asDouble();
            double dur = g.path("dur").asDouble();
            Double at = g.path("args").path("correlation").canConvertToLong() ? launchTs.get(g.path("args").path("correlation").asLong()) : null;
            boolean warmUp = "kernel".equals(g.path("cat").asText()) && at != null && at >= stepStart && at < stepEnd;
            double moved = ts + added;
            g.put("ts", moved);
            if (warmUp) {
                g.put("dur", dur * factor);
                added += dur * (factor - 1);
                warmUpGpuEnd = Math.max(warmUpGpuEnd, moved + dur * factor);
                if (aKernel == null) aKernel = g;
            }
        }
        if (aKernel == null || aLaunch == null) throw new IllegalArgumentException(source + ": no kernel launched in the first step");
        // the autotuning trials: launched at the end of the warm-up step, run right after its kernels
        double trialUs = 500;
        double launchAt = stepEnd - extra * 2.0 - 1;
        double runAt = warmUpGpuEnd + 1;
        List<ObjectNode> trials = new ArrayList<>();
        for (int i = 0; i < extra; i++) {
            long corr = maxCorr + 1000 + i;
            ObjectNode launch = ((ObjectNode) aLaunch).deepCopy();
            launch.put("ts", launchAt + i * 2.0);
            launch.put("dur", 1.0);
            ((ObjectNode) launch.path("args")).put("correlation", corr);
            ((ObjectNode) launch.path("args")).remove("External id");
            rest.add(launch);
            ObjectNode k = aKernel.deepCopy();
            k.put("name", "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_autotune_trial_" + i);
            k.put("ts", runAt + i * trialUs);
            k.put("dur", trialUs - 1);
            ((ObjectNode) k.path("args")).put("correlation", corr);
            ((ObjectNode) k.path("args")).remove("External id");
            trials.add(k);
        }
        double trialsUs = extra * trialUs;
        for (ObjectNode g : gpu) if (g.path("ts").asDouble() >= runAt) g.put("ts", g.path("ts").asDouble() + trialsUs);
        List<JsonNode> out = new ArrayList<>();
        rest.forEach(out::add);
        gpu.forEach(out::add);
        trials.forEach(out::add);
        return ProfileVariants.writeTrace(trace, out, dir, name);
    }
}
