package dlproflint.reporters.html.viewer;

import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.Percent;
import dlproflint.reporters.html.Text;
import dlproflint.reporters.html.table.DataBlock;

/** One row per GPU, used or not (DLProf's GPUs view table). */
final class GpuData {
    private GpuData() {
    }

    static DataBlock of(String id, RowIndex index, FindingRefs refs) {
        DataBlock.Builder b = new DataBlock.Builder(id, "dev", "name", "cc", "sm", "mem", "memUsed", "kernels",
                "kernelNs", "memOps", "busy", "util", "used", "findings");
        for (int i = 0; i < index.devices.size(); i++) {
            int dev = index.devices.get(i);
            GpuInfo g = index.gpuInfo.get(dev);
            GpuUsage u = index.gpuUsage.get(dev);
            boolean used = u != null && u.used();
            b.row(dev, g == null ? null : Text.clean(g.name()),
                    g == null || !g.capabilityKnown() ? null : g.computeCapability(),
                    g == null || g.smCount() <= 0 ? null : g.smCount(),
                    g == null || g.totalMemoryBytes() <= 0 ? null : g.totalMemoryBytes(),
                    g == null || g.usedMemoryBytes() < 0 ? null : g.usedMemoryBytes(),
                    u == null ? 0L : u.kernelCount(), u == null ? 0L : u.kernelNs(), u == null ? 0L : u.memoryOpCount(),
                    u == null ? null : u.busyNs(), u == null ? null : Math.round(Percent.bounded(u.utilizationPct()) * 1000) / 1000.0, used,
                    refs.findings(FindingRefs.Kind.GPU, i));
        }
        return b.build();
    }
}
