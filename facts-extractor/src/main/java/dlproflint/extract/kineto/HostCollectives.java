package dlproflint.extract.kineto;

import dlproflint.facts.CollectiveKind;

/**
 * Collectives that run on the host, as a Kineto trace records them. Gloo (and MPI) run a collective on a CPU
 * worker thread of the process group: the profiler opens a {@code gloo:all_reduce} range when that thread starts
 * the work and closes it when the work completes, which is when every rank of the group has taken part; so, like an
 * NCCL kernel, the range holds the wait for the last rank. Works run on several worker threads at once (two by
 * default), and the calling thread only enqueues them ({@code c10d::allreduce_} is microseconds).
 *
 * <p>Where a process records no such ranges, {@code record_param_comms} (the collective's parameters, recorded
 * around the backend call by c10d) is the only trace of a collective; it is measured as host-side only when the
 * process ran no communication kernel and issued no {@code nccl:*} call, because with NCCL it spans only the
 * enqueue of a kernel that does the work.
 */
final class HostCollectives {
    /** {@code gloo:*} / {@code mpi:*} work ranges */
    private final Spans work = new Spans();
    /** {@code record_param_comms} calls that name a collective */
    private final Spans params = new Spans();

    /** A range's columns: start, end, {@link CollectiveKind} ordinal, message bytes (-1 unknown). */
    static final class Spans {
        final LongColumn start = new LongColumn();
        final LongColumn end = new LongColumn();
        final IntColumn kind = new IntColumn();
        final LongColumn bytes = new LongColumn();

        private void add(long s, long e, CollectiveKind k, long b) {
            start.add(s);
            end.add(e);
            kind.add(k.ordinal());
            bytes.add(b);
        }

        int size() {
            return start.size();
        }
    }

    /**
     * A CPU op or user annotation.
     *
     * @param call the collective its name calls ({@link KinetoNames#collectiveCall}), or null
     */
    void observe(TraceEvent e, String name, CollectiveKind call) {
        if (call != null) {
            if (name.startsWith("gloo:") || name.startsWith("mpi:")) {
                work.add(e.tsNs, e.endNs(), call, KinetoNames.tensorBytes(e.inputDims, e.inputType));
            }
        } else if (e.collective != null && "record_param_comms".equals(name)) {
            CollectiveKind k = CollectiveKind.ofOperation(e.collective); // null for "wait" and other non-collectives
            if (k != null) params.add(e.tsNs, e.endNs(), k, KinetoNames.messageBytes(e.inNelems, e.outNelems, e.dtype));
        }
    }

    /**
     * The ranges to measure as host-side collectives: the backend's work ranges, else {@code record_param_comms}
     * when the process's collectives ran no kernel ({@code deviceComm} false); empty otherwise.
     *
     * @param deviceComm whether the process launched communication kernels or issued {@code nccl:*} calls (asked
     *                   only when it decides)
     */
    Spans measured(java.util.function.BooleanSupplier deviceComm) {
        if (work.size() > 0 || params.size() == 0) return work;
        return deviceComm.getAsBoolean() ? new Spans() : params;
    }
}
