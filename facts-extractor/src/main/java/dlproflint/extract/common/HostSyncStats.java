package dlproflint.extract.common;

import dlproflint.facts.HostSyncStat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A {@link HostSyncStat} from a reader's sync points (outermost calls, in start order). */
public final class HostSyncStats {
    private static final int LISTED_NAMES = 6;

    private HostSyncStats() {
    }

    /**
     * @param starts, ends, names the sync points, sorted by start
     * @param steps               the aggregated steps' windows {start, end}, sorted; empty when the profile has none
     * @param gpuIdleNs           the GPU idle time they caused ({@link SyncIdle}), -1 when not measured
     * @return the fact, or null without sync points
     */
    public static HostSyncStat of(long[] starts, long[] ends, String[] names, long[][] steps, long gpuIdleNs) {
        int points = starts.length;
        if (points == 0) return null;
        long blocked = 0;
        Map<String, Long> byName = new LinkedHashMap<>();
        for (int i = 0; i < points; i++) {
            blocked += ends[i] - starts[i];
            byName.merge(names[i], 1L, Long::sum);
        }
        int stepsWithSync = 0;
        for (long[] st : steps) {
            int k = Arrays.binarySearch(starts, st[0]);
            if (k < 0) k = -k - 1;
            else while (k > 0 && starts[k - 1] == st[0]) k--;
            if (k < points && starts[k] < st[1]) stepsWithSync++;
        }
        List<Map.Entry<String, Long>> sorted = new ArrayList<>(byName.entrySet());
        sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        List<String> calls = new ArrayList<>();
        for (Map.Entry<String, Long> c : sorted) {
            if (calls.size() == LISTED_NAMES) break;
            calls.add(c.getKey() + ": " + c.getValue());
        }
        return new HostSyncStat(points, blocked, gpuIdleNs, steps.length, stepsWithSync, calls);
    }
}
