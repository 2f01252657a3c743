package dlproflint.packs.dlprof;

import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/** Device bookkeeping for {@code underutilized-gpu.drl} (DLProf's multi-GPU form). */
public final class GpuUse {
    private GpuUse() {
    }

    /**
     * Device ids present on the target (GpuInfo, or a GpuUsage row) that ran no kernel, memcpy or
     * memset, in ascending order.
     */
    public static List<Integer> unusedDeviceIds(Collection<?> gpus, Collection<?> usage) {
        TreeSet<Integer> all = new TreeSet<>();
        TreeSet<Integer> used = new TreeSet<>();
        for (Object o : gpus) if (o instanceof GpuInfo g) all.add(g.deviceId());
        for (Object o : usage) {
            if (o instanceof GpuUsage u) {
                all.add(u.deviceId());
                if (u.used()) used.add(u.deviceId());
            }
        }
        all.removeAll(used);
        return new ArrayList<>(all);
    }

    /**
     * As {@link #unusedDeviceIds(Collection, Collection)}, but none for a distributed job: each rank's
     * profile lists every GPU visible on the node, and the other ranks run on the other GPUs.
     */
    public static List<Integer> unusedDeviceIds(Collection<?> gpus, Collection<?> usage, int worldSize) {
        return worldSize > 1 ? List.of() : unusedDeviceIds(gpus, usage);
    }

    /** {@code 1 2 3}, DLProf's spelling of a device list. */
    public static String ids(List<Integer> ids) {
        StringBuilder sb = new StringBuilder();
        for (Integer i : ids) {
            if (sb.length() > 0) sb.append(' ');
            sb.append(i);
        }
        return sb.toString();
    }

    /** Number of distinct devices known from GpuInfo and GpuUsage. */
    public static int deviceCount(Collection<?> gpus, Collection<?> usage) {
        TreeSet<Integer> all = new TreeSet<>();
        for (Object o : gpus) if (o instanceof GpuInfo g) all.add(g.deviceId());
        for (Object o : usage) if (o instanceof GpuUsage u) all.add(u.deviceId());
        return all.size();
    }

    /** Some device ran a kernel, copy or memset. */
    public static boolean anyUsed(Collection<?> usage) {
        for (Object o : usage) if (o instanceof GpuUsage u && u.used()) return true;
        return false;
    }
}
