package dlproflint.facts;

/**
 * What the capture itself cost the host, estimated from the trace by the measurement layer
 * ({@code extract.common.CaptureOverhead}, {@code extract.common.HostReplay}): every recorded host event (op, runtime
 * call, annotation, memory event) costs the profiler's callbacks a few microseconds, so a host-bound loop runs slower
 * profiled than it does in training. Host-bound symptoms are judged on the loop without it. Absent when the reader
 * cannot estimate it (no steps, too few ops that only launch a kernel, a format without per-event host records).
 *
 * @param perEventNs        the estimated cost per recorded host event
 * @param eventsPerStep     recorded host events per aggregated step
 * @param overheadPerStepNs their cost per step ({@code perEventNs × eventsPerStep})
 * @param profiledStepNs    the host's step as profiled (its aggregated CPU range over the steps)
 * @param unprofiledStepNs  the step replayed without that cost (host and GPU, the GPU's work unchanged)
 * @param settings          the capture options the trace records ({@code record_shapes, with_stack on}), in words
 */
public record ProfilerOverhead(double perEventNs, double eventsPerStep, double overheadPerStepNs, double profiledStepNs,
                               double unprofiledStepNs, String settings) implements java.io.Serializable {
    public ProfilerOverhead {
        settings = settings == null ? "" : settings;
    }

    /**
     * A share of the profiled step (GPU utilization: the GPU's busy time, which the profiler does not change) as a
     * share of the step without the profiler; never below the measured share, at most 100.
     */
    public double withoutProfilerPct(double measuredPct) {
        if (unprofiledStepNs <= 0 || profiledStepNs <= unprofiledStepNs) return measuredPct;
        return Math.min(100, measuredPct * profiledStepNs / unprofiledStepNs);
    }
}
