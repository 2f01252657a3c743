package dlproflint.extract.common;

import dlproflint.extract.kernels.KernelClass;
import dlproflint.facts.GpuInfo;

import java.util.HashMap;
import java.util.Map;

/**
 * What the GPU work itself proves about a device the profile does not describe (Kineto traces without
 * {@code deviceProperties}, nsys exports without {@code TARGET_INFO_GPU}): the newest GPU generation a
 * kernel that ran on it was built for (a kernel built for sm80 cannot run on an older GPU), and the SM
 * count the profiler's own per-kernel {@code blocks per SM} figure implies. The product name is never
 * guessed. Bounded by the number of devices.
 */
public final class GpuEvidence {
    private final Map<Integer, int[]> lowerBound = new HashMap<>();
    /** device → {blocks of the largest grid seen, SM count it implies} */
    private final Map<Integer, long[]> sms = new HashMap<>();

    public void kernel(int device, KernelClass c) {
        if (!c.hasMinCapability()) return;
        int[] b = lowerBound.get(device);
        if (b == null || c.minMajor() > b[0] || c.minMajor() == b[0] && c.minMinor() > b[1]) {
            lowerBound.put(device, new int[] {c.minMajor(), c.minMinor()});
        }
    }

    /**
     * A kernel of {@code blocks} thread blocks the profiler reported as {@code perSm} blocks (or warps, with
     * {@code warpsPerBlock} > 1) per SM: the largest grid gives the least rounding error.
     */
    public void occupancy(int device, long blocks, double perSm, int warpsPerBlock) {
        if (blocks <= 0 || !(perSm > 0) || Double.isInfinite(perSm)) return;
        long[] s = sms.get(device);
        if (s != null && s[0] >= blocks) return;
        long estimate = Math.round(blocks * (double) Math.max(1, warpsPerBlock) / perSm);
        if (estimate > 0 && estimate < 100_000) sms.put(device, new long[] {blocks, estimate});
    }

    /** {@code recorded} completed with the evidence: an unknown capability becomes a lower bound, a missing SM count an estimate. */
    public GpuInfo complete(GpuInfo recorded) {
        int id = recorded.deviceId();
        int smCount = recorded.smCount() > 0 || !sms.containsKey(id) ? recorded.smCount() : (int) sms.get(id)[1];
        int[] b = lowerBound.get(id);
        if (recorded.capabilityKnown() || b == null) {
            return smCount == recorded.smCount() ? recorded : new GpuInfo(id, recorded.name(), smCount,
                    recorded.totalMemoryBytes(), recorded.computeMajor(), recorded.computeMinor(),
                    recorded.usedMemoryBytes(), recorded.capability());
        }
        return new GpuInfo(id, recorded.name(), smCount, recorded.totalMemoryBytes(), b[0], b[1],
                recorded.usedMemoryBytes(), GpuInfo.Capability.AT_LEAST);
    }
}
