package dlproflint.extract.kineto;

/**
 * How much communication the computation hides: per GPU, the time collective kernels ran, and the part of it
 * during which nothing else (kernel, copy, memset) ran on that GPU. The GPU with the most exposed
 * communication speaks for the process.
 */
final class CommExposure {
    /** {busyNs, exposedNs} */
    static long[] of(GpuStreams s, KinetoAggregator a) {
        java.util.Map<Integer, LongColumn[]> byDevice = new java.util.TreeMap<>();
        for (int i = 0; i < s.size(); i++) {
            boolean comm = s.table(i) == GpuStreams.KERNEL && a.collectiveKernel(s.nameIndex(i));
            LongColumn[] c = byDevice.computeIfAbsent(s.device(i),
                    d -> new LongColumn[] {new LongColumn(), new LongColumn(), new LongColumn(), new LongColumn()});
            c[comm ? 2 : 0].add(s.start(i));
            c[comm ? 3 : 1].add(s.end(i));
        }
        long[] worst = {0, 0};
        for (LongColumn[] c : byDevice.values()) {
            if (c[2].size() == 0) continue;
            long[] commStarts = c[2].sorted();
            long[] commEnds = c[3].sorted();
            long from = commStarts[0];
            long to = commEnds[commEnds.length - 1];
            long busy = new SortedPriorityTimeline(new long[][] {commStarts}, new long[][] {commEnds}).flatten(from, to)[0];
            long exposed = new SortedPriorityTimeline(new long[][] {c[0].sorted(), commStarts},
                    new long[][] {c[1].sorted(), commEnds}).flatten(from, to)[1];
            if (exposed > worst[1] || worst[0] == 0) worst = new long[] {busy, exposed};
        }
        return worst;
    }

    private CommExposure() {
    }
}
