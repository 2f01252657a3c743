package dlproflint.facts;

/**
 * DLProf's summary over the aggregation range: every percent is of the wall-clock time; the
 * duration buckets are flattened (each instant counted in one bucket, by priority TC kernel &gt;
 * other kernel &gt; memory &gt; dataloader &gt; I/O &gt; CPU &gt; other) so they sum to 100.
 *
 * @param tcUtilizationPct DLProf's tensor-core kernel utilisation: tensor-core kernel time / kernel time of
 *                         tensor-core eligible work (eligible ops, and every tensor-core kernel) * 100
 * @param gpuUtilizationPct GPU busy (kernels) / wall * 100
 */
public record TimeBreakdown(long wallNs, double tcUtilizationPct, double gpuUtilizationPct,
                            double tcKernelPct, double nonTcKernelPct, double memoryPct,
                            double dataloaderPct, double ioPct, double cpuPct, double otherPct) {
    /** Every field is a share of a whole that contains it (see the record description): held to 0..100. */
    public TimeBreakdown {
        tcUtilizationPct = Percent.bounded(tcUtilizationPct);
        gpuUtilizationPct = Percent.bounded(gpuUtilizationPct);
        tcKernelPct = Percent.bounded(tcKernelPct);
        nonTcKernelPct = Percent.bounded(nonTcKernelPct);
        memoryPct = Percent.bounded(memoryPct);
        dataloaderPct = Percent.bounded(dataloaderPct);
        ioPct = Percent.bounded(ioPct);
        cpuPct = Percent.bounded(cpuPct);
        otherPct = Percent.bounded(otherPct);
    }

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
