package dlproflint.facts;

/**
 * DLProf's summary over the aggregation range: every percent is of the wall-clock time; the
 * duration buckets are flattened (each instant counted in one bucket, by priority TC kernel &gt;
 * other kernel &gt; memory &gt; dataloader &gt; I/O &gt; CPU &gt; other) so they sum to 100.
 *
 * @param tcUtilizationPct tensor-core kernel time / all kernel time * 100
 * @param gpuUtilizationPct GPU busy (kernels) / wall * 100
 */
public record TimeBreakdown(long wallNs, double tcUtilizationPct, double gpuUtilizationPct,
                            double tcKernelPct, double nonTcKernelPct, double memoryPct,
                            double dataloaderPct, double ioPct, double cpuPct, double otherPct) {
    /** The non-GPU bucket with the highest share: {@code CPU}, {@code Dataloader}, {@code IO} or {@code Other}. */
    public String topNonGpuCategory() {
        String name = "CPU";
        double best = cpuPct;
        if (dataloaderPct > best) { name = "Dataloader"; best = dataloaderPct; }
        if (ioPct > best) { name = "IO"; best = ioPct; }
        if (otherPct > best) { name = "Other"; }
        return name;
    }

    public double topNonGpuPct() {
        return Math.max(Math.max(cpuPct, dataloaderPct), Math.max(ioPct, otherPct));
    }
}
