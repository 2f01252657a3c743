package dlproflint.extract.kineto;

/**
 * One trace event, reused for every event of the file (the parser overwrites it), holding only the
 * fields the aggregation needs. Absent numbers are {@link #NONE}.
 */
final class TraceEvent {
    static final long NONE = Long.MIN_VALUE;

    String ph;
    String cat;
    String name;
    String pidText;
    String tidText;
    long tsNs;
    long durNs;
    long externalId;
    long correlation;
    long device;
    long stream;
    long bytes;
    long totalAllocated;
    long totalReserved;
    long deviceType;
    long deviceId;
    String inputType;
    String inputDims;
    String callStack;
    int[] grid = new int[3];
    int[] block = new int[3];
    boolean hasGrid;
    /** {@code est. achieved occupancy %} of a kernel, or -1 */
    int occupancyPct;
    /** autograd sequence number of an op, {@link #NONE} when absent */
    long seq;
    /** profiler number of the thread that ran the forward op of a backward one (0 on forward ops), or {@link #NONE} */
    long fwdThread;
    /** kernel: blocks per SM (or, in 2021 traces, warps per SM) as the profiler computed them, NaN when absent */
    double blocksPerSm;
    double warpsPerSm;
    /** collective metadata (NCCL kernels, {@code record_param_comms}): {@code Collective name}, message sizes, ... */
    String collective;
    long inNelems;
    long outNelems;
    String dtype;
    long groupSize;
    String groupName;
    String groupDesc;
    long commRank;

    void reset() {
        ph = null;
        cat = null;
        name = null;
        pidText = null;
        tidText = null;
        tsNs = NONE;
        durNs = NONE;
        externalId = NONE;
        correlation = NONE;
        device = NONE;
        stream = NONE;
        bytes = NONE;
        totalAllocated = NONE;
        totalReserved = NONE;
        deviceType = NONE;
        deviceId = NONE;
        inputType = null;
        inputDims = null;
        callStack = null;
        hasGrid = false;
        occupancyPct = -1;
        seq = NONE;
        fwdThread = NONE;
        blocksPerSm = Double.NaN;
        warpsPerSm = Double.NaN;
        collective = null;
        inNelems = NONE;
        outNelems = NONE;
        dtype = null;
        groupSize = NONE;
        groupName = null;
        groupDesc = null;
        commRank = NONE;
    }

    /** Category normalised: lower case, legacy spellings mapped to today's names. */
    String kind() {
        if (cat == null) return "[memory]".equals(name) ? "cpu_instant_event" : "";
        String c = cat.toLowerCase(java.util.Locale.ROOT);
        return switch (c) {
            case "operator" -> "cpu_op";
            case "runtime" -> "cuda_runtime";
            case "memcpy" -> "gpu_memcpy";
            case "memset" -> "gpu_memset";
            default -> c;
        };
    }

    long endNs() {
        return tsNs + Math.max(0, durNs);
    }
}
