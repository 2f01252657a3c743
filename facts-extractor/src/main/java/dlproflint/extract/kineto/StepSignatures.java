package dlproflint.extract.kineto;

import dlproflint.facts.StepKernelSequence;

import java.util.HashMap;
import java.util.Map;

/**
 * Each aggregated step's kernel sequence as a hash (kernel names in order on each stream), and how many steps
 * share the most common one: a step that repeats identically can be captured once as a CUDA graph and replayed.
 */
final class StepSignatures {
    private StepSignatures() {
    }

    /**
     * @param steps the aggregated steps' host windows {start, end}, sorted
     * @return the fact, or null with fewer than two steps that ran kernels
     */
    static StepKernelSequence of(GpuStreams s, long[][] steps, long graphLaunches) {
        int n = steps.length;
        if (n < 2) return null;
        long[] starts = new long[n];
        for (int i = 0; i < n; i++) starts[i] = steps[i][0];
        long[] hash = new long[n];
        long[] count = new long[n];
        long[] gpuNs = new long[n];
        for (int g = 0; g < s.groups(); g++) {
            for (int i = s.groupStart[g]; i < s.groupStart[g + 1]; i++) {
                if (s.table(i) != GpuStreams.KERNEL) continue;
                long at = s.launchedAt(i);
                int step = java.util.Arrays.binarySearch(starts, at);
                if (step < 0) step = -step - 2;
                if (step < 0 || at >= steps[step][1]) continue;
                hash[step] = mix(hash[step] * 0x9E3779B97F4A7C15L + (((long) g << 32) | s.nameIndex(i)));
                count[step]++;
                gpuNs[step] += s.duration(i);
            }
        }
        Map<Long, int[]> groups = new HashMap<>(); // signature -> {steps, first step}
        int withKernels = 0;
        for (int i = 0; i < n; i++) {
            if (count[i] == 0) continue;
            withKernels++;
            long key = mix(hash[i] ^ count[i]);
            int[] c = groups.computeIfAbsent(key, k -> new int[] {0, -1});
            c[0]++;
            if (c[1] < 0) c[1] = i;
        }
        if (withKernels < 2) return null;
        int[] best = null;
        long bestKey = 0;
        for (Map.Entry<Long, int[]> e : groups.entrySet()) {
            int[] c = e.getValue();
            if (best == null || c[0] > best[0] || c[0] == best[0] && c[1] < best[1]) {
                best = c;
                bestKey = e.getKey();
            }
        }
        long ns = 0;
        for (int i = 0; i < n; i++) if (count[i] > 0 && mix(hash[i] ^ count[i]) == bestKey) ns += gpuNs[i];
        return new StepKernelSequence(withKernels, best[0], count[best[1]], ns / best[0], graphLaunches);
    }

    private static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }
}
