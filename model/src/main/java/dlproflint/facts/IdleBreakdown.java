package dlproflint.facts;

/**
 * Why one GPU stream sat idle inside the analysed range (HTA's idle time breakdown), for the stream that ran
 * the most GPU time on its device. Each gap between consecutive operations (kernel, copy, memset) of the
 * stream is <em>host wait</em> when the next operation's launch call started only after the previous
 * operation had ended (the GPU waited for the host), else <em>kernel wait</em> when shorter than 30 µs
 * (launch latency between queued kernels), else <em>other</em> (waits on other streams, events, copies).
 *
 * @param spanNs from the stream's first operation to its last, inside the analysed range
 * @param busyNs time the stream ran operations
 * @param gaps   number of gaps
 * @param hostWaitGaps      gaps classified host wait
 * @param launchHostWaitNs  host wait in gaps shorter than 50 µs (HTA's launch-call cutoff): the GPU ran out of
 *                          work between launches because the host could not launch faster; longer host waits
 *                          are the host doing something else (loading data, logging, synchronising)
 */
public record IdleBreakdown(int deviceId, long stream, long spanNs, long busyNs, long hostWaitNs, long kernelWaitNs,
                            long otherNs, long gaps, long hostWaitGaps, long launchHostWaitNs) {
    public long idleNs() {
        return hostWaitNs + kernelWaitNs + otherNs;
    }

    /** Idle share of the stream's span, 0..100. */
    public double idlePct() {
        return Percent.of(idleNs(), spanNs);
    }

    /** Share of the idle time the GPU waited for the host, 0..100. */
    public double hostWaitPct() {
        return Percent.of(hostWaitNs, idleNs());
    }

    public double kernelWaitPct() {
        return Percent.of(kernelWaitNs, idleNs());
    }

    public double otherPct() {
        return Percent.of(otherNs, idleNs());
    }

    /** Launch-bound host wait as a share of the stream's span, 0..100. */
    public double launchHostWaitPct() {
        return Percent.of(launchHostWaitNs, spanNs);
    }

    /** {@code host wait}, {@code kernel wait} or {@code other}: the largest of the three. */
    public String dominantCause() {
        if (hostWaitNs >= kernelWaitNs && hostWaitNs >= otherNs) return "host wait";
        return kernelWaitNs >= otherNs ? "kernel wait" : "other";
    }
}
