package dlproflint.extract.nsys;

import dlproflint.extract.common.Iterations;
import dlproflint.extract.common.StepSweep;
import dlproflint.facts.CollectiveKind;
import dlproflint.facts.ProfileFacts;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Feeds an nsys export's kernels, copies and memsets to the {@link StepSweep} in start order, merging the three
 * start-ordered table streams (SQLite sorts none of them when nsys wrote them in time order), and its data-loader
 * NVTX ranges. Steps are the iterations, numbered by index: nsys has no step numbers of its own.
 */
final class NsysSteps {
    private final NsysDatabase db;
    private final Map<Long, Integer> classByName = new HashMap<>();

    NsysSteps(NsysDatabase db) {
        this.db = db;
    }

    void sweep(Iterations its, long profileEnd, ProfileFacts.Builder out) throws SQLException {
        int n = its.count();
        int[] numbers = new int[n];
        long[] starts = new long[n];
        long[] ends = new long[n];
        for (int i = 0; i < n; i++) {
            numbers[i] = i;
            starts[i] = its.start(i);
            ends[i] = i + 1 < n ? its.start(i + 1) : profileEnd;
        }
        StepSweep sweep = new StepSweep(numbers, starts, ends);
        List<Statement> statements = new ArrayList<>();
        try {
            List<ResultSet> streams = new ArrayList<>();
            List<Boolean> kernel = new ArrayList<>();
            String kernelName = db.hasColumn("CUPTI_ACTIVITY_KIND_KERNEL", "shortName") ? "shortName"
                    : db.hasColumn("CUPTI_ACTIVITY_KIND_KERNEL", "demangledName") ? "demangledName" : "NULL";
            for (String t : List.of("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET")) {
                if (!db.has(t)) continue;
                Statement st = db.connection().createStatement();
                statements.add(st);
                boolean k = t.endsWith("KERNEL");
                streams.add(st.executeQuery("SELECT start, end" + (k ? ", " + kernelName : "") + " FROM " + t
                        + db.orderBy(t, null, "start")));
                kernel.add(k);
            }
            merge(streams, kernel, sweep);
            dataLoader(sweep, profileEnd);
        } finally {
            for (Statement s : statements) s.close();
        }
        sweep.finish(out);
    }

    private void merge(List<ResultSet> streams, List<Boolean> kernel, StepSweep sweep) throws SQLException {
        int m = streams.size();
        boolean[] live = new boolean[m];
        for (int i = 0; i < m; i++) live[i] = streams.get(i).next();
        while (true) {
            int best = -1;
            long bestStart = Long.MAX_VALUE;
            for (int i = 0; i < m; i++) {
                if (live[i] && streams.get(i).getLong(1) < bestStart) {
                    bestStart = streams.get(i).getLong(1);
                    best = i;
                }
            }
            if (best < 0) return;
            ResultSet r = streams.get(best);
            long end = r.getLong(2);
            int cls = kernel.get(best) ? kernelClass(r) : StepSweep.MEMORY;
            sweep.gpu(bestStart, Math.max(bestStart, end), cls, -1);
            live[best] = r.next();
        }
    }

    private int kernelClass(ResultSet r) throws SQLException {
        long nameId = r.getLong(3);
        if (r.wasNull()) return StepSweep.COMPUTE;
        Integer c = classByName.get(nameId);
        if (c == null) {
            CollectiveKind k = CollectiveKind.ofKernel(db.string(nameId));
            c = k == null ? StepSweep.COMPUTE : k.ordinal();
            classByName.put(nameId, c);
        }
        return c;
    }

    /** PyTorch's DataLoader ranges ({@code enumerate(DataLoader)#...}, {@code _next_data}) as the time breakdown finds them. */
    private void dataLoader(StepSweep sweep, long profileEnd) throws SQLException {
        if (!db.has("NVTX_EVENTS") || !db.hasColumn("NVTX_EVENTS", "start") || !db.hasColumn("NVTX_EVENTS", "end")) return;
        List<String> match = new ArrayList<>();
        String like = "(%1$s LIKE '%%dataloader%%' OR %1$s LIKE '%%_next_data%%' OR %1$s LIKE '%%data_loader%%')";
        if (db.hasColumn("NVTX_EVENTS", "text")) match.add(String.format(like, "text"));
        if (db.hasColumn("NVTX_EVENTS", "textId") && db.has("StringIds")) {
            match.add("textId IN (SELECT id FROM StringIds WHERE " + String.format(like, "value") + ")");
        }
        if (match.isEmpty()) return;
        String types = db.col("NVTX_EVENTS", "eventType", "59") + " IN (" + NvtxScan.RANGE_TYPES + ")";
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT start, COALESCE(end, " + profileEnd + ") FROM NVTX_EVENTS WHERE "
                     + types + " AND (" + String.join(" OR ", match) + ")")) {
            while (rs.next()) sweep.dataLoader(rs.getLong(1), rs.getLong(2));
        }
    }
}
