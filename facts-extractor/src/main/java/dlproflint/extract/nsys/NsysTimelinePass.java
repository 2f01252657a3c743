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
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
     * One synchronisation call, and the GPU idle time after it returned ({@code idleAfterNs}, measured by the GPU busy
     * sweep, {@link GpuBusy}: the drained pipeline waiting for the host's next work).
     */
    static final class SyncCall {
        final long start;
        final long end;
        final long nameId;
        /** the innermost push/pop range it was made in (null: none with a text) */
        final MarkerText range;
        long idleAfterNs;

        SyncCall(long start, long end, long nameId, MarkerText range) {
            this.start = start;
            this.end = end;
            this.nameId = nameId;
            this.range = range;
        }
    }

    /** The synchronisation calls of every thread, start-ordered per thread. */
    static final class SyncCalls {
        final Map<Long, String> names;
        final Map<Long, List<SyncCall>> byThread = new LinkedHashMap<>();

        SyncCalls(Map<Long, String> names) {
            this.names = names;
        }

        /** One process's calls, by end time (the order the GPU timeline meets them in). */
        List<SyncCall> byEnd(long pid) {
            List<SyncCall> out = new ArrayList<>();
            for (Map.Entry<Long, List<SyncCall>> t : byThread.entrySet()) {
                if (((t.getKey() >> 24) & 0xFFFFFF) == pid) out.addAll(t.getValue());
            }
            out.sort(Comparator.comparingLong(c -> c.end));
            return out;
        }

        /** Idle time was summed over the process's devices: their mean is the GPU time the call cost. */
        void averageIdleOver(Map<Long, Integer> devicesPerPid) {
            for (Map.Entry<Long, List<SyncCall>> t : byThread.entrySet()) {
                int n = devicesPerPid.getOrDefault((t.getKey() >> 24) & 0xFFFFFF, 1);
                if (n > 1) for (SyncCall c : t.getValue()) c.idleAfterNs /= n;
            }
        }
    }

    /** The synchronising calls the correlation pass selected, per thread (in thread order) by start. */
    SyncCalls loadSyncCalls(SelectedCalls selected) {
        if (!db.has("CUPTI_ACTIVITY_KIND_RUNTIME")) return new SyncCalls(Map.of());
        steps.syncVisible();
        SyncCalls calls = new SyncCalls(selected.synchronizing);
        List<SelectedCalls.Call> rows = selected.of(selected.synchronizing);
        rows.sort(Comparator.comparingLong(SelectedCalls.Call::tid).thenComparingLong(SelectedCalls.Call::start));
        for (SelectedCalls.Call c : rows) {
            calls.byThread.computeIfAbsent(c.tid(), k -> new ArrayList<>()).add(new SyncCall(c.start(), c.end(), c.nameId(), c.range()));
        }
        return calls;
    }

    private void syncCalls(ProfileFacts.Builder b, SyncCalls calls) {
        Map<Long, String> ids = calls.names;
        Map<Long, List<SyncCall>> byThread = calls.byThread;
        Map<String, SyncTotals> perApi = new TreeMap<>();
        Map<String, Map<String, Long>> rangesPerApi = new HashMap<>();
        int[] steady = steadyIterations();
        for (Map.Entry<Long, List<SyncCall>> t : byThread.entrySet()) {
            for (SyncCall c : t.getValue()) {
                String api = ids.get(c.nameId);
                long d = Math.max(0, c.end - c.start);
                steps.sync(c.start, c.end);
                SyncTotals acc = perApi.computeIfAbsent(api, k -> new SyncTotals());
                acc.calls++;
                acc.totalNs += d;
                acc.maxNs = Math.max(acc.maxNs, d);
                acc.idleAfterNs += c.idleAfterNs;
                int it = iterationOf(c.start);
                if (steady[1] > 0 && it >= steady[0] && it <= range[1]) {
                    acc.steadyCalls++;
                    acc.steadyNs += d;
                    acc.steadyIdleAfterNs += c.idleAfterNs;
                }
                String r = c.range == null ? null : c.range.text();
                if (r != null) rangesPerApi.computeIfAbsent(api, k -> new HashMap<>()).merge(r, 1L, Long::sum);
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
        for (SelectedCalls.Call c : selected.of(ids)) {
            String api = ids.get(c.nameId());
            long d = Math.max(0, c.end() - c.start());
            long[] acc = perApi.computeIfAbsent(api, k -> new long[4]);
            acc[0]++;
            acc[1] += d;
            int it = iterationOf(c.start());
            if (it >= firstSteady && it <= range[1]) {
                acc[2]++;
                acc[3] += d;
                iterationsHit.computeIfAbsent(api, k -> new java.util.BitSet()).set(it);
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
