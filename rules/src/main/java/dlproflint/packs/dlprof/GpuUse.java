package dlproflint.packs.dlprof;

import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
import dlproflint.findings.Subject;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/** Device bookkeeping for {@code underutilized-gpu.drl} (DLProf's multi-GPU form). */
public final class GpuUse {
    /**
     * GPU utilization as the rule judges it: measured, or for a host-bound loop whose reader estimated the profiler's
     * own host cost ({@link dlproflint.facts.ProfilerOverhead}), the share of the step without that cost.
     */
    public static double utilization(dlproflint.facts.TimeBreakdown b, java.util.Collection<?> overheads,
                                     dlproflint.facts.IterationSummary s) {
        double u = b.gpuUtilizationPct();
        if (s == null || !dlproflint.facts.IterationSummary.HOST_BOUND.equals(s.binding())) return u;
        for (Object o : overheads) return ((dlproflint.facts.ProfilerOverhead) o).withoutProfilerPct(u);
        return u;
    }

    /** Device ids a message or evidence lists before "and N more". */
    public static final int MAX_LISTED = 32;
    /** The subject of the idle-GPU finding: all idle GPUs of the profile together. */
    public static final Subject UNUSED = new Subject("gpu", "unused", "idle GPUs");

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
        return ids(ids, Integer.MAX_VALUE);
    }

    /** {@code 1 2 3}, or {@code 0 1 ... 31 and 968 more} beyond {@code max} ids. */
    public static String ids(List<Integer> ids, int max) {
        StringBuilder sb = new StringBuilder();
        for (Integer i : first(ids, max)) {
            if (sb.length() > 0) sb.append(' ');
            sb.append(i);
        }
        if (ids.size() > max) sb.append(" and ").append(ids.size() - max).append(" more");
        return sb.toString();
    }

    /** The first {@code max} ids. */
    public static List<Integer> first(List<Integer> ids, int max) {
        return ids.size() <= max ? ids : List.copyOf(ids.subList(0, max));
    }

    /** The GPU name all of {@code ids} share ({@code GpuInfo.name}), or null when they differ or are unknown. */
    public static String commonName(Collection<?> gpus, List<Integer> ids) {
        java.util.Set<Integer> wanted = new java.util.HashSet<>(ids);
        String name = null;
        int named = 0;
        for (Object o : gpus) {
            if (!(o instanceof GpuInfo g) || !wanted.contains(g.deviceId())) continue;
            if (g.name() == null || (name != null && !name.equals(g.name()))) return null;
            name = g.name();
            named++;
        }
        return named == wanted.size() ? name : null;
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
