package dlproflint.extract.nsys;

import dlproflint.extract.common.ApiNames;
import dlproflint.extract.common.IndexSort;
import dlproflint.extract.common.SyncPoints;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The few CUDA API calls that steps after the correlation pass need, picked out of that pass's one read of
 * {@code CUPTI_ACTIVITY_KIND_RUNTIME} by their name ids (looked up in {@code StringIds} first): the synchronising
 * calls of the sync facts ({@link NsysTimelinePass#loadSyncCalls}), the allocation calls of the allocation facts,
 * and the host-blocking calls of the pytorch pack ({@link NsysHostSyncs}). Each of those used to scan the runtime
 * table again in SQL, a million rows a scan on a 1M-launch export, for a few thousand calls. Four longs are kept
 * per selected call (as many as those steps kept before), nothing for the others.
 */
final class SelectedCalls {
    private static final String RUNTIME = "CUPTI_ACTIVITY_KIND_RUNTIME";
    private static final String[] ALLOCATION_APIS = {"cudaMalloc", "cudaFree", "cudaHostAlloc", "cudaMallocHost",
            "cudaFreeHost", "cuMemAlloc", "cuMemFree", "cuMemHostAlloc", "cuMemFreeHost"};

    /** name id → normalized name: the synchronising calls ({@link ApiNames#SYNCHRONIZING}, as SQL's LIKE matches) */
    final Map<Long, String> synchronizing;
    /** name id → normalized name: allocation and release calls */
    final Map<Long, String> allocating;
    /** name id → normalized name: the calls that block the host ({@link SyncPoints#blockingApi}) */
    final Map<Long, String> blocking;
    /** the kinds of call, as bits of {@link #kinds}: a name can be of more than one */
    static final int SYNCHRONIZING = 1;
    static final int ALLOCATING = 2;
    static final int BLOCKING = 4;

    /** every selected name id, sorted (a binary search per call of the pass) */
    private final long[] ids;
    /** per selected name id: its kinds */
    private final byte[] kindOfId;
    /** per selected call: thread, start, end as recorded, name id */
    private long[] rows = new long[4 * 64];
    /** per selected call: the innermost push/pop range it was made in (synchronising calls only; else null) */
    private MarkerText[] ranges = new MarkerText[64];
    /** per selected call: its kinds */
    private byte[] kinds = new byte[64];
    private int count;

    private SelectedCalls(Map<Long, String> synchronizing, Map<Long, String> allocating, Map<Long, String> blocking) {
        this.synchronizing = synchronizing;
        this.allocating = allocating;
        this.blocking = blocking;
        this.ids = java.util.stream.Stream.of(synchronizing, allocating, blocking).flatMap(m -> m.keySet().stream())
                .mapToLong(Long::longValue).distinct().sorted().toArray();
        this.kindOfId = new byte[ids.length];
        for (int i = 0; i < ids.length; i++) {
            kindOfId[i] = (byte) ((synchronizing.containsKey(ids[i]) ? SYNCHRONIZING : 0)
                    | (allocating.containsKey(ids[i]) ? ALLOCATING : 0) | (blocking.containsKey(ids[i]) ? BLOCKING : 0));
        }
    }

    /** The name ids to select in {@code db}; none where its runtime table has no name ids. */
    static SelectedCalls of(NsysDatabase db) throws SQLException {
        if (!db.has(RUNTIME) || !db.hasColumn(RUNTIME, "nameId") || !db.has("StringIds")) {
            return new SelectedCalls(Map.of(), Map.of(), Map.of());
        }
        Map<Long, String> blocking = new LinkedHashMap<>();
        for (Map.Entry<Long, String> e : namesMatching(db, "value LIKE 'cu%Synchronize%'").entrySet()) {
            if (SyncPoints.blockingApi(e.getValue())) blocking.put(e.getKey(), e.getValue());
        }
        return new SelectedCalls(namesMatching(db, prefixes(ApiNames.SYNCHRONIZING.toArray(String[]::new))),
                namesMatching(db, prefixes(ALLOCATION_APIS)), blocking);
    }

    private static String prefixes(String... prefixes) {
        return Arrays.stream(prefixes).map(p -> "value LIKE '" + p + "%'").collect(Collectors.joining(" OR "));
    }

    /** The strings whose value matches {@code where} (SQL's LIKE: case-blind for ASCII), normalized, by id. */
    private static Map<Long, String> namesMatching(NsysDatabase db, String where) throws SQLException {
        Map<Long, String> names = new HashMap<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT id, value FROM StringIds WHERE " + where)) {
            while (rs.next()) names.put(rs.getLong(1), ApiNames.normalize(rs.getString(2)));
        }
        return names;
    }

    /**
     * One call of the runtime table as the correlation pass reads it; kept when its name is selected and it has both
     * times (the SQL the steps ran asked for {@code start IS NOT NULL AND end IS NOT NULL}).
     */
    void offer(long nameId, long tid, long start, long end, boolean timed, MarkerText range) {
        if (!timed || ids.length == 0) return;
        int id = Arrays.binarySearch(ids, nameId);
        if (id < 0) return;
        if (4 * count + 4 > rows.length) {
            rows = Arrays.copyOf(rows, rows.length * 2);
            ranges = Arrays.copyOf(ranges, rows.length / 4);
            kinds = Arrays.copyOf(kinds, rows.length / 4);
        }
        ranges[count] = range;
        kinds[count] = kindOfId[id];
        int at = 4 * count++;
        rows[at] = tid;
        rows[at + 1] = start;
        rows[at + 2] = end;
        rows[at + 3] = nameId;
    }

    /** The selected calls of {@code kind} (one of its bits), as indexes in the order the pass met them. */
    int[] of(int kind) {
        int n = 0;
        for (int i = 0; i < count; i++) if ((kinds[i] & kind) != 0) n++;
        int[] out = new int[n];
        n = 0;
        for (int i = 0; i < count; i++) if ((kinds[i] & kind) != 0) out[n++] = i;
        return out;
    }

    /**
     * {@code calls} (indexes) in start order, or in (thread, start) order with {@code byThread}; calls that tie keep
     * their order.
     */
    int[] inOrder(int[] calls, boolean byThread) {
        int n = calls.length;
        long[] tids = new long[n];
        long[] starts = new long[n];
        for (int k = 0; k < n; k++) {
            tids[k] = tid(calls[k]);
            starts[k] = start(calls[k]);
        }
        int[] order = byThread ? IndexSort.byKeys(n, tids, starts) : IndexSort.byKeys(n, starts);
        int[] out = new int[n];
        for (int k = 0; k < n; k++) out[k] = calls[order[k]];
        return out;
    }

    /** The thread of selected call {@code i}. */
    long tid(int i) {
        return rows[4 * i];
    }

    long start(int i) {
        return rows[4 * i + 1];
    }

    /** The end of selected call {@code i} as recorded. */
    long end(int i) {
        return rows[4 * i + 2];
    }

    long nameId(int i) {
        return rows[4 * i + 3];
    }

    /** The innermost push/pop range call {@code i} was made in (synchronising calls only), or null. */
    MarkerText range(int i) {
        return ranges[i];
    }
}
