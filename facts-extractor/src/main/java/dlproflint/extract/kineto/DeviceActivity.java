package dlproflint.extract.kineto;

import dlproflint.extract.kineto.KinetoAggregator.GpuColumns;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * GPU activities grouped by device in one pass: per device, the sorted start and end times and the
 * summed duration. Computing a device's utilisation by rescanning every activity for each device cost
 * devices × activities, which a trace naming many devices turned into hours.
 */
final class DeviceActivity {
    /** One device's activities. */
    record Times(long[] starts, long[] ends, long count, long totalNs) {
        static final Times NONE = new Times(new long[0], new long[0], 0, 0);
    }

    private final Map<Integer, Times> byDevice;

    private DeviceActivity(Map<Integer, Times> byDevice) {
        this.byDevice = byDevice;
    }

    static DeviceActivity of(GpuColumns... tables) {
        Map<Integer, int[]> counts = new HashMap<>();
        for (GpuColumns t : tables) {
            for (int k = 0; k < t.size(); k++) counts.computeIfAbsent(t.device.get(k), d -> new int[1])[0]++;
        }
        Map<Integer, long[][]> arrays = new HashMap<>();
        Map<Integer, long[]> totals = new HashMap<>();
        counts.forEach((d, n) -> {
            arrays.put(d, new long[][] {new long[n[0]], new long[n[0]]});
            totals.put(d, new long[1]);
            n[0] = 0; // reused as the fill position
        });
        for (GpuColumns t : tables) {
            for (int k = 0; k < t.size(); k++) {
                int d = t.device.get(k);
                long[][] se = arrays.get(d);
                int i = counts.get(d)[0]++;
                long s = t.start.get(k);
                long dur = t.dur.get(k);
                se[0][i] = s;
                se[1][i] = s + dur;
                totals.get(d)[0] += dur;
            }
        }
        Map<Integer, Times> out = new HashMap<>();
        arrays.forEach((d, se) -> {
            Arrays.sort(se[0]);
            Arrays.sort(se[1]);
            out.put(d, new Times(se[0], se[1], se[0].length, totals.get(d)[0]));
        });
        return new DeviceActivity(out);
    }

    Times of(int device) {
        return byDevice.getOrDefault(device, Times.NONE);
    }
}
