package dlproflint.extract.nsys;

import dlproflint.extract.common.ApiNames;
import dlproflint.extract.common.Iterations;
import dlproflint.extract.common.StepTimeline;
import dlproflint.facts.AllocStat;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.SyncApiStat;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Call facts for the {@code nsys} rule pack from the few CUDA API calls they concern, selected by name from the
 * correlation pass's read of the runtime table ({@link SelectedCalls}: memory bounded by those calls, not by
 * events): synchronising API calls with the NVTX ranges they occur in, and allocation calls spread over the
 * aggregated (steady) iterations; and, per iteration, the time blocked in synchronisation ({@link StepTimeline}). GPU gaps and busy bins come from the timeline
 * sweep ({@link GpuBusy}).
 */
final class NsysTimelinePass {

    private final NsysDatabase db;
    private final Iterations its;
    private final int[] range;
    private final long wallNs;
    private final StepTimeline steps;

    /** @param steps receives each step's synchronisation time */
    NsysTimelinePass(NsysDatabase db, Iterations its, int[] range, long end, StepTimeline steps) {
        this.db = db;
        this.its = its;
        this.range = range;
        this.wallNs = end;
        this.steps = steps;
    }

    /**
     * @param sync   the synchronisation calls, with the GPU idle time after each measured by the GPU busy sweep
     *               ({@link #loadSyncCalls}, {@link GpuBusy})
     *               with the innermost push/pop NVTX range around each, as the correlation pass met them
     */
    void collect(ProfileFacts.Builder b, SyncCalls sync, SelectedCalls selected) {
        syncCalls(b, sync);
        allocations(b, selected);
    }

    /** PROFILER_OVERHEAD intervals per process, start-ordered: GPU busy time includes them ({@link GpuBusy}). */
    static Map<Long, List<long[]>> overheadByPid(NsysDatabase db) throws SQLException {
        Map<Long, List<long[]>> byPid = new HashMap<>();
        if (!db.has("PROFILER_OVERHEAD") || !db.hasColumn("PROFILER_OVERHEAD", "globalTid")) return byPid;
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT " + NsysDatabase.pidOf("globalTid") + ", start, end FROM PROFILER_OVERHEAD "
                     + "WHERE start IS NOT NULL AND end IS NOT NULL ORDER BY start")) {
            while (rs.next()) byPid.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>()).add(new long[] {rs.getLong(2), rs.getLong(3)});
        }
        return byPid;
    }

    private int iterationOf(long t) {
        return its == null || its.count() == 0 ? -1 : its.indexOf(t);
    }

    // ------------------------------------------------------------------ synchronising calls

    /**
     * The synchronising calls the correlation pass selected, in columns, by thread then start, each with the GPU idle
     * time after it returned ({@code idleAfterNs}, measured by the GPU busy sweep, {@link GpuBusy}: the drained
     * pipeline waiting for the host's next work) and the innermost push/pop range it was made in (null: none with a
     * text). A profile can have a sync call per launch: no object per call.
     */
    static final class SyncCalls {
        final Map<Long, String> names;
        final int count;
        final long[] tid;
        final long[] start;
        final long[] end;
        final long[] nameId;
        final MarkerText[] range;
        final long[] idleAfterNs;

        SyncCalls(Map<Long, String> names) {
            this(names, null, new int[0]);
        }

        /** The calls {@code of} of {@code selected}, put in (thread, start) order. */
        SyncCalls(Map<Long, String> names, SelectedCalls selected, int[] of) {
            this.names = names;
            count = of.length;
            int[] order = count == 0 ? of : selected.inOrder(of, true); // none: no calls selected at all
            tid = new long[count];
            start = new long[count];
            end = new long[count];
            nameId = new long[count];
            range = new MarkerText[count];
            idleAfterNs = new long[count];
            for (int k = 0; k < count; k++) {
                int c = order[k];
                tid[k] = selected.tid(c);
                start[k] = selected.start(c);
                end[k] = selected.end(c);
                nameId[k] = selected.nameId(c);
                range[k] = selected.range(c);
            }
        }

        /** One process's calls (indexes), by end time (the order the GPU timeline meets them in). */
        int[] byEnd(long pid) {
            int n = 0;
            for (int k = 0; k < count; k++) if (NsysDatabase.pidOf(tid[k]) == pid) n++;
            int[] of = new int[n];
            long[] ends = new long[n];
            n = 0;
            for (int k = 0; k < count; k++) {
                if (NsysDatabase.pidOf(tid[k]) == pid) {
                    ends[n] = end[k];
                    of[n++] = k;
                }
            }
            int[] order = dlproflint.extract.common.IndexSort.byKeys(n, ends);
            int[] out = new int[n];
            for (int k = 0; k < n; k++) out[k] = of[order[k]];
            return out;
        }

        /** Idle time was summed over the process's devices: their mean is the GPU time the call cost. */
        void averageIdleOver(Map<Long, Integer> devicesPerPid) {
            for (int k = 0; k < count; k++) {
                int n = devicesPerPid.getOrDefault(NsysDatabase.pidOf(tid[k]), 1);
                if (n > 1) idleAfterNs[k] /= n;
            }
        }
    }

    /** The synchronising calls the correlation pass selected, per thread (in thread order) by start. */
    SyncCalls loadSyncCalls(SelectedCalls selected) {
        if (!db.has("CUPTI_ACTIVITY_KIND_RUNTIME")) return new SyncCalls(Map.of());
        steps.syncVisible();
        return new SyncCalls(selected.synchronizing, selected, selected.of(SelectedCalls.SYNCHRONIZING));
    }

    private void syncCalls(ProfileFacts.Builder b, SyncCalls calls) {
        Map<Long, String> ids = calls.names;
        Map<String, SyncTotals> perApi = new TreeMap<>();
        Map<String, Map<String, Long>> rangesPerApi = new HashMap<>();
        int[] steady = steadyIterations();
        long lastId = 0;
        String api = null;
        SyncTotals acc = null;
        Map<String, Long> ranges = null;
        for (int k = 0; k < calls.count; k++) {
            if (api == null || calls.nameId[k] != lastId) {
                // calls of one name come in runs: the name and its sums looked up once a run
                lastId = calls.nameId[k];
                api = ids.get(lastId);
                acc = perApi.computeIfAbsent(api, x -> new SyncTotals());
                ranges = null;
            }
            long start = calls.start[k];
            long d = Math.max(0, calls.end[k] - start);
            steps.sync(start, calls.end[k]);
            acc.calls++;
            acc.totalNs += d;
            acc.maxNs = Math.max(acc.maxNs, d);
            acc.idleAfterNs += calls.idleAfterNs[k];
            int it = iterationOf(start);
            if (steady[1] > 0 && it >= steady[0] && it <= range[1]) {
                acc.steadyCalls++;
                acc.steadyNs += d;
                acc.steadyIdleAfterNs += calls.idleAfterNs[k];
            }
            String r = calls.range[k] == null ? null : calls.range[k].text();
            if (r != null) {
                if (ranges == null) ranges = rangesPerApi.computeIfAbsent(api, x -> new HashMap<>());
                ranges.merge(r, 1L, Long::sum);
            }
        }
        for (Map.Entry<String, SyncTotals> e : perApi.entrySet()) {
            List<String> top = rangesPerApi.getOrDefault(e.getKey(), Map.of()).entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                    .limit(5).map(r -> r.getKey() + ": " + r.getValue() + " calls").toList();
            SyncTotals a = e.getValue();
            b.syncApiStat(new SyncApiStat(e.getKey(), a.calls, a.totalNs, a.maxNs, wallNs, top, steady[1], a.steadyCalls,
                    a.steadyNs, a.idleAfterNs, a.steadyIdleAfterNs));
        }
    }

    /** One synchronising API's calls: over the run and over the steady iterations, with the GPU idle after them. */
    private static final class SyncTotals {
        long calls;
        long totalNs;
        long maxNs;
        long steadyCalls;
        long steadyNs;
        long idleAfterNs;
        long steadyIdleAfterNs;
    }

    /**
     * The steady-state iterations, {first, count}: the aggregated ones (the steady window leaves the start-up steps
     * out; an explicit {@code --iter-start/--iter-stop} is the user's steady range).
     */
    private int[] steadyIterations() {
        return new int[] {range[0], Math.max(0, range[1] - range[0] + 1)};
    }

    // ------------------------------------------------------------------ allocations per iteration

    private void allocations(ProfileFacts.Builder b, SelectedCalls selected) {
        if (!db.has("CUPTI_ACTIVITY_KIND_RUNTIME")) return;
        Map<Long, String> ids = selected.allocating;
        if (ids.isEmpty()) return;
        int[] steadyRange = steadyIterations();
        int firstSteady = steadyRange[0];
        int steady = steadyRange[1];
        Map<String, long[]> perApi = new TreeMap<>();
        Map<String, java.util.BitSet> iterationsHit = new HashMap<>();
        long lastId = 0;
        String api = null;
        long[] acc = null;
        java.util.BitSet hits = null;
        for (int c : selected.of(SelectedCalls.ALLOCATING)) {
            if (api == null || selected.nameId(c) != lastId) {
                lastId = selected.nameId(c);
                api = ids.get(lastId);
                acc = perApi.computeIfAbsent(api, k -> new long[4]);
                hits = null;
            }
            long d = Math.max(0, selected.end(c) - selected.start(c));
            acc[0]++;
            acc[1] += d;
            int it = iterationOf(selected.start(c));
            if (it >= firstSteady && it <= range[1]) {
                acc[2]++;
                acc[3] += d;
                if (hits == null) hits = iterationsHit.computeIfAbsent(api, k -> new java.util.BitSet());
                hits.set(it);
            }
        }
        for (Map.Entry<String, long[]> e : perApi.entrySet()) {
            long[] a = e.getValue();
            java.util.BitSet hit = iterationsHit.get(e.getKey());
            b.allocStat(new AllocStat(e.getKey(), ApiNames.category(e.getKey()), a[0], a[1], wallNs, steady,
                    hit == null ? 0 : hit.cardinality(), a[2], a[3]));
        }
    }
}
