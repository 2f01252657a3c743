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
        // a kernel without "block" (or with short arrays) must not inherit the previous event's dimensions
        java.util.Arrays.fill(grid, 0);
        java.util.Arrays.fill(block, 0);
    }

    /** An independent copy (the parser reuses its instance). */
    TraceEvent copy() {
        TraceEvent c = new TraceEvent();
        c.ph = ph;
        c.cat = cat;
        c.name = name;
        c.pidText = pidText;
        c.tidText = tidText;
        c.tsNs = tsNs;
        c.durNs = durNs;
        c.externalId = externalId;
        c.correlation = correlation;
        c.device = device;
        c.stream = stream;
        c.bytes = bytes;
        c.totalAllocated = totalAllocated;
        c.totalReserved = totalReserved;
        c.deviceType = deviceType;
        c.deviceId = deviceId;
        c.inputType = inputType;
        c.inputDims = inputDims;
        c.callStack = callStack;
        c.grid = grid.clone();
        c.block = block.clone();
        c.hasGrid = hasGrid;
        c.seq = seq;
        c.fwdThread = fwdThread;
        c.blocksPerSm = blocksPerSm;
        c.warpsPerSm = warpsPerSm;
        c.occupancyPct = occupancyPct;
        c.collective = collective;
        c.inNelems = inNelems;
        c.outNelems = outNelems;
        c.dtype = dtype;
        c.groupSize = groupSize;
        c.groupName = groupName;
        c.groupDesc = groupDesc;
        c.commRank = commRank;
        return c;
    }

    /** Kinds by category text: a trace has a handful of categories, and millions of events. */
    private static final java.util.Map<String, String> KINDS = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The process the autograd profiler's own Chrome trace puts every event in: PyTorch builds without Kineto
     * (Debian's {@code python3-torch} 1.13, CPU only) write it from {@code torch.autograd.profiler.profile()} and
     * from {@code torch.profiler.profile()} alike, as a bare array of {@code ph: "X"} events with no category.
     */
    static final String LEGACY_CPU_PROCESS = "CPU functions";

    /** Category normalised: lower case, legacy spellings mapped to today's names. */
    String kind() {
        if (cat == null) {
            if ("[memory]".equals(name)) return "cpu_instant_event";
            return "X".equals(ph) && LEGACY_CPU_PROCESS.equals(pidText) ? legacyKind(name) : "";
        }
        String k = KINDS.get(cat);
        if (k == null) {
            k = kindOf(cat);
            if (KINDS.size() < 1024) KINDS.put(cat, k);
        }
        return k;
    }

    /**
     * A legacy event without a category, named as Kineto would have categorised it: {@code record_function}
     * ranges PyTorch itself opens are named {@code Kind#detail} ({@code ProfilerStep#3},
     * {@code Optimizer.step#SGD.step}, {@code enumerate(DataLoader)#...}) and are Kineto's user annotations;
     * everything else is an op ({@code aten::mm}, {@code AddmmBackward0}, {@code autograd::engine::...}). A range
     * the user named without {@code #} cannot be told from an op and counts as one.
     */
    private static String legacyKind(String name) {
        return name != null && name.indexOf('#') > 0 ? "user_annotation" : "cpu_op";
    }

    private static String kindOf(String cat) {
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
