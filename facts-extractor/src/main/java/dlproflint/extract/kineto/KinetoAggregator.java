package dlproflint.extract.kineto;

import dlproflint.extract.common.LongIntMap;
import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.extract.ReadOptions;
import dlproflint.extract.common.IterationEvidence;
import dlproflint.extract.common.StepNames;
import dlproflint.facts.StatAccumulator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects a Kineto trace in one streaming pass. Per-name statistics are aggregated on the fly;
 * GPU activities and CPU op intervals are kept in primitive columns, because their links (External
 * id → op) and the iteration windows are only known at the end of the file. {@link KinetoFactsBuilder}
 * turns the result into facts.
 */
final class KinetoAggregator implements TraceHandler {
    /** One op name's statistics (CPU side). */
    static final class OpAgg {
        final String name;
        final int index;
        String inputTypes;
        String inputDims;
        /** some call ran in the backward pass (an autograd node, {@code Fwd thread id} > 0) */
        boolean backward;

        OpAgg(String name, int index) {
            this.name = name;
            this.index = index;
        }
    }

    /**
     * One GPU activity table: kernels, memcpys or memsets, a column per field (no object per launch).
     */
    static final class GpuColumns {
        final LongColumn start = new LongColumn();
        final LongColumn dur = new LongColumn();
        final LongColumn externalId = new LongColumn();
        /** every operation's launch correlation (the PyTorch signals find each kernel's launch by it) */
        final LongColumn correlation = new LongColumn();
        /** bytes moved: a copy's or memset's size, a collective kernel's message size (0 otherwise) */
        final LongColumn bytes = new LongColumn();
        final IntColumn device = new IntColumn();
        final IntColumn nameIndex = new IntColumn();
        /** the collective a kernel's own metadata names ({@link dlproflint.facts.CollectiveKind} ordinal), -1 when none */
        final IntColumn collective = new IntColumn();
        final IntColumn stream = new IntColumn();
        /** kernels only: {@code est. achieved occupancy %} and {@code blocks per SM} (float bits), -1 when absent */
        final IntColumn occupancy = new IntColumn();
        final IntColumn blocksPerSm = new IntColumn();

        int size() {
            return start.size();
        }
    }

    final ReadOptions options;
    private final TraceLimits limits;
    /** Characters of distinct text kept so far (names, shapes, call stacks), against {@link TraceLimits#maxTextChars}. */
    private long textChars;
    /** Distinct device ids seen on events, against {@link TraceLimits#MAX_DEVICES}. */
    private final java.util.Set<Integer> devicesSeen = new java.util.HashSet<>();
    final List<String[]> warnings = new ArrayList<>();
    final KinetoCallSites sites = new KinetoCallSites();
    final List<String> names = new ArrayList<>();
    private final Map<String, Integer> nameIndex = new HashMap<>();
    final Map<String, OpAgg> ops = new HashMap<>();
    final List<OpAgg> opList = new ArrayList<>();
    final LongIntMap externalIdToOp = new LongIntMap();
    final LongColumn cpuOpStart = new LongColumn();
    final LongColumn cpuOpEnd = new LongColumn();
    /** each CPU op event's op (an index of {@link #opList}), beside its start and end: ops are counted per step */
    final IntColumn cpuOpIndex = new IntColumn();
    final GpuColumns kernels = new GpuColumns();
    final GpuColumns memcpys = new GpuColumns();
    final GpuColumns memsets = new GpuColumns();
    final Map<Integer, int[]> kernelLaunchDims = new HashMap<>();
    /** what kernels prove about GPUs the trace does not describe */
    final dlproflint.extract.common.GpuEvidence gpuEvidence = new dlproflint.extract.common.GpuEvidence();
    final Map<String, StatAccumulator> apiStats = new TreeMap<>();
    final LongIntMap correlationToMemApi = new LongIntMap();
    /** the host calls that launched GPU work, by correlation id */
    final LaunchCalls launchCalls = new LaunchCalls();
    final HostSyncCalls hostSyncs = new HostSyncCalls();
    /** every host event the profiler recorded (ops, annotations, runtime calls, instant events): its own cost is per event */
    final HostEvents hostEvents = new HostEvents();
    final DistributedSignals distributedSignals = new DistributedSignals();
    /** collectives run on the host (Gloo work ranges, record_param_comms) */
    final HostCollectives hostCollectives = new HostCollectives();
    final Map<Integer, Long> memoryEvents = new TreeMap<>();
    /** every CPU-side op and annotation, for {@link dlproflint.extract.common.IterationDiscovery} */
    final IterationEvidence evidence;
    /** host-blocking synchronisation calls, for the time each step blocked */
    final LongColumn syncStart = new LongColumn();
    final LongColumn syncEnd = new LongColumn();
    /** autograd pairing: the forward op a sequence number belongs to (the longest call carrying it) and that call's µs */
    final LongIntMap forwardBySeq = new LongIntMap();
    final LongIntMap forwardMicrosBySeq = new LongIntMap();
    /** backward-node calls: their op and the sequence number of the forward op that created them */
    final IntColumn backwardOp = new IntColumn();
    final LongColumn backwardSeq = new LongColumn();
    /** framework collective calls ({@code nccl:all_reduce} annotations): when, and which collective */
    final LongColumn commCallStart = new LongColumn();
    final LongColumn commCallEnd = new LongColumn();
    final IntColumn commCallKind = new IntColumn();
    /** communicator data from collective metadata: the default process group's size, and this rank */
    long defaultGroupSize = TraceEvent.NONE;
    long commRank = TraceEvent.NONE;
    final LongColumn dataLoaderStart = new LongColumn();
    final LongColumn dataLoaderEnd = new LongColumn();
    final LongColumn dataLoaderThread = new LongColumn();
    final StatAccumulator dataLoaderCalls = new StatAccumulator();
    Integer dataLoaderWorkers;
    final Map<Integer, Long> peakReserved = new TreeMap<>();
    final Map<Integer, Long> peakAllocated = new TreeMap<>();
    JsonNode devices;
    JsonNode distributed;
    long baseTimeNs;
    final Map<String, String> topLevel = new HashMap<>();
    long traceSpanStart = Long.MAX_VALUE;
    long traceSpanEnd = Long.MIN_VALUE;
    long minTs = Long.MAX_VALUE;
    long maxEnd = Long.MIN_VALUE;
    long events;
    /** events of the autograd profiler's own trace (no Kineto): {@link TraceEvent#LEGACY_CPU_PROCESS}, no category */
    long legacyEvents;
    long atenOps;
    long negativeDurations;
    long eventsWithoutTime;

    KinetoAggregator(ReadOptions options) {
        this(options, TraceLimits.unbounded());
    }

    KinetoAggregator(ReadOptions options, TraceLimits limits) {
        this.options = options;
        this.limits = limits;
        this.evidence = new IterationEvidence(options.keyNode(), null);
    }

    /** Accounts for text about to be kept for the rest of the read. */
    private String keep(String s) {
        if (s != null && (textChars += s.length()) > limits.maxTextChars) throw limits.tooMuchText();
        return s;
    }

    /** Per name index: 0 not yet asked, 1 a collective (communication) kernel's name, 2 not. */
    private byte[] collectiveByName = new byte[0];

    /**
     * Whether the kernel name at {@code nameIndex} is a collective's ({@link KinetoNames#isCollectiveKernel}),
     * asked once per name: the facts ask it for every launch.
     */
    boolean collectiveKernel(int nameIndex) {
        if (nameIndex >= collectiveByName.length) {
            collectiveByName = java.util.Arrays.copyOf(collectiveByName, Math.max(names.size(), nameIndex + 1));
        }
        byte c = collectiveByName[nameIndex];
        if (c == 0) {
            c = KinetoNames.isCollectiveKernel(names.get(nameIndex)) ? (byte) 1 : (byte) 2;
            collectiveByName[nameIndex] = c;
        }
        return c == 1;
    }

    int intern(String name) {
        Integer i = nameIndex.get(name);
        if (i != null) return i;
        keep(name);
        int idx = names.size();
        names.add(name);
        nameIndex.put(name, idx);
        return idx;
    }

    @Override
    public void event(TraceEvent e) {
        events++;
        if (!"X".equals(e.ph) && !"i".equals(e.ph) && !"I".equals(e.ph)) return;
        if (e.tsNs == TraceEvent.NONE) {
            eventsWithoutTime++;
            return;
        }
        if (e.durNs == TraceEvent.NONE) e.durNs = 0;
        if (e.durNs < 0) {
            negativeDurations++;
            e.durNs = 0;
        }
        String name = e.name == null ? "" : e.name;
        String kind = e.kind();
        if (e.cat == null && TraceEvent.LEGACY_CPU_PROCESS.equals(e.pidText)) legacyEvents++;
        if ("trace".equals(kind)) {
            traceSpanStart = Math.min(traceSpanStart, e.tsNs);
            traceSpanEnd = Math.max(traceSpanEnd, e.endNs());
            return;
        }
        if (!"python_function".equals(kind)) {
            minTs = Math.min(minTs, e.tsNs);
            maxEnd = Math.max(maxEnd, e.endNs());
        } else {
            sites.python(e);
            return;
        }
        hostEvents.add(kind, e.tsNs, e.endNs(), threadKey(e));
        switch (kind) {
            case "cpu_op", "user_annotation" -> {
                evidence.range(name, null, e.tsNs, e.endNs(), sites.thread(e));
                cpuOp(e, name);
            }
            case "gpu_user_annotation" -> evidence.gpuRange(name, e.tsNs, e.endNs());
            case "cuda_runtime", "cuda_driver" -> runtime(e, name);
            case "kernel" -> gpu(kernels, e, name);
            case "gpu_memcpy" -> gpu(memcpys, e, name);
            case "gpu_memset" -> gpu(memsets, e, name);
            case "cpu_instant_event" -> memory(e, name);
            default -> { }
        }
    }

    /**
     * Whether the event is one whose input types and input dims {@link #cpuOp} keeps (for the
     * op's first event that has them): an X or instant event with a time, of a CPU op that is neither a
     * profiler step nor a DataLoader call. The parser relies on it to skip those details once kept.
     */
    static boolean keepsOpDetails(TraceEvent e) {
        if (!"X".equals(e.ph) && !"i".equals(e.ph) && !"I".equals(e.ph) || e.tsNs == TraceEvent.NONE) return false;
        String name = e.name == null ? "" : e.name;
        return "cpu_op".equals(e.kind()) && !StepNames.profilerStep(name) && !StepNames.dataLoaderNext(name);
    }

    private void cpuOp(TraceEvent e, String name) {
        communicator(e);
        dlproflint.facts.CollectiveKind call = KinetoNames.collectiveCall(name);
        if (call != null) {
            commCallStart.add(e.tsNs);
            commCallEnd.add(e.endNs());
            commCallKind.add(call.ordinal());
        }
        hostCollectives.observe(e, name, call);
        distributedSignals.observe(name, e.tsNs, e.endNs());
        if (dlproflint.extract.common.SyncPoints.blockingOp(name)) {
            hostSyncs.add(e.tsNs, e.endNs(), threadKey(e), intern(name));
        }
        hostSyncs.scalerOp(name, e.tsNs, e.endNs(), threadKey(e));
        if (StepNames.profilerStep(name)) {
            sites.step(e); // a step marker, not an op
            return;
        }
        if (StepNames.dataLoaderNext(name)) {
            dataLoaderStart.add(e.tsNs);
            dataLoaderEnd.add(e.endNs());
            dataLoaderThread.add(threadKey(e));
            dataLoaderCalls.add(e.durNs);
            Integer w = KinetoNames.dataLoaderWorkers(name);
            if (w != null) dataLoaderWorkers = w;
            return;
        }
        if (!"cpu_op".equals(e.kind())) return; // other user annotations are scopes, not ops
        if (name.startsWith("aten::")) atenOps++;
        OpAgg agg = ops.get(name);
        if (agg == null) {
            agg = new OpAgg(keep(name), opList.size());
            ops.put(name, agg);
            opList.add(agg);
        }
        if (agg.inputTypes == null && e.inputType != null) agg.inputTypes = keep(e.inputType);
        if (agg.inputDims == null && e.inputDims != null) agg.inputDims = keep(e.inputDims);
        sites.op(agg.index, e);
        if (e.externalId != TraceEvent.NONE) externalIdToOp.put(e.externalId, agg.index);
        if (e.seq != TraceEvent.NONE && e.seq >= 0) sequence(e, agg, name);
        cpuOpStart.add(e.tsNs);
        cpuOpEnd.add(e.endNs());
        cpuOpIndex.add(agg.index);
    }

    /**
     * Autograd's sequence numbers pair a backward node with the forward op that created it: forward ops
     * carry {@code Fwd thread id} 0 (ops nested in one op share its number, so the longest call - the
     * outermost - stands for it), backward nodes the number of the forward thread (older traces: no
     * thread id, a {@code ...Backward} name).
     */
    private void sequence(TraceEvent e, OpAgg agg, String name) {
        boolean backward = e.fwdThread != TraceEvent.NONE ? e.fwdThread > 0
                : KinetoNames.direction(name) == dlproflint.facts.Direction.BPROP;
        if (backward) {
            agg.backward = true;
            backwardOp.add(agg.index);
            backwardSeq.add(e.seq);
            return;
        }
        int micros = (int) Math.min(Integer.MAX_VALUE, Math.max(0, e.durNs) / 1000);
        if (forwardMicrosBySeq.get(e.seq, -1) < micros) {
            forwardBySeq.put(e.seq, agg.index);
            forwardMicrosBySeq.put(e.seq, micros);
        }
    }

    /** What collective metadata says about the communicator: the default group's size and this process's rank. */
    private void communicator(TraceEvent e) {
        if (e.groupSize != TraceEvent.NONE && e.groupSize > 0
                && ("0".equals(e.groupName) || "default_pg".equals(e.groupDesc))) {
            defaultGroupSize = Math.max(defaultGroupSize, e.groupSize);
        }
        if (e.commRank != TraceEvent.NONE && e.commRank >= 0 && commRank == TraceEvent.NONE) commRank = e.commRank;
    }

    /**
     * Per distinct runtime call name: its normalized API name, statistics, whether it copies or sets memory,
     * synchronises with the GPU, or blocks the host.
     */
    /** A runtime call's name and what it is, worked out once per name: {@code copy} for the memcpy calls alone. */
    private record Api(String name, StatAccumulator stats, boolean memory, boolean copy, boolean synchronizing,
                       boolean blocking) {
    }

    private final Map<String, Api> apis = new HashMap<>();

    private void runtime(TraceEvent e, String name) {
        // a trace repeats a few dozen call names millions of times: normalise each name once
        Api api = apis.get(name);
        if (api == null) {
            String normalized = dlproflint.extract.common.ApiNames.normalize(name);
            String cat = dlproflint.extract.common.ApiNames.category(normalized);
            api = new Api(normalized, apiStats.computeIfAbsent(normalized, k -> {
                keep(k);
                return new StatAccumulator();
            }), "memcpy".equals(cat) || "memset".equals(cat), "memcpy".equals(cat),
                    dlproflint.extract.common.ApiNames.synchronizing(normalized),
                    dlproflint.extract.common.SyncPoints.blockingApi(normalized));
            if (apis.size() < 100_000) apis.put(name, api);
        }
        api.stats().add(e.durNs);
        if (api.synchronizing()) {
            syncStart.add(e.tsNs);
            syncEnd.add(e.endNs());
        }
        sites.runtime(api.name(), e);
        if (api.memory() && e.correlation != TraceEvent.NONE) {
            correlationToMemApi.put(e.correlation, intern(api.name()));
        }
        if (e.correlation != TraceEvent.NONE && e.correlation != 0) launchCalls.add(e.correlation, e.tsNs, e.durNs);
        if (api.blocking()) hostSyncs.add(e.tsNs, e.endNs(), threadKey(e), intern(api.name()));
        // a copy call inside .item() is its device-to-host read (a trace may leave out the stream sync after it)
        else if (api.copy()) hostSyncs.copyCall(e.tsNs, e.endNs(), threadKey(e));
    }

    /** Host thread of an event, to tell nested calls from calls on other threads. */
    private static long threadKey(TraceEvent e) {
        return e.tidText == null ? 0 : e.tidText.hashCode();
    }

    private void gpu(GpuColumns cols, TraceEvent e, String name) {
        int n = intern(name);
        cols.start.add(e.tsNs);
        cols.dur.add(e.durNs);
        cols.externalId.add(e.externalId);
        cols.correlation.add(e.correlation);
        cols.bytes.add(e.bytes == TraceEvent.NONE ? 0 : e.bytes);
        cols.device.add(deviceOf(e));
        cols.nameIndex.add(n);
        dlproflint.facts.CollectiveKind call = cols == kernels ? dlproflint.facts.CollectiveKind.ofOperation(e.collective) : null;
        cols.collective.add(call == null ? -1 : call.ordinal());
        if (cols == kernels) {
            communicator(e);
            if (e.collective != null) cols.bytes.set(cols.size() - 1, KinetoNames.messageBytes(e.inNelems, e.outNelems, e.dtype));
        }
        cols.stream.add(streamOf(e));
        cols.occupancy.add(e.occupancyPct);
        cols.blocksPerSm.add(Float.floatToIntBits(Double.isNaN(e.blocksPerSm) || e.blocksPerSm < 0 ? -1f : (float) e.blocksPerSm));
        if (cols == kernels && e.hasGrid && !kernelLaunchDims.containsKey(n)) {
            kernelLaunchDims.put(n, new int[] {e.grid[0], e.grid[1], e.grid[2], e.block[0], e.block[1], e.block[2]});
        }
        if (cols == kernels && e.hasGrid) {
            long blocks = (long) Math.max(1, e.grid[0]) * Math.max(1, e.grid[1]) * Math.max(1, e.grid[2]);
            if (e.blocksPerSm > 0) {
                gpuEvidence.occupancy(cols.device.get(cols.size() - 1), blocks, e.blocksPerSm, 1);
            } else if (e.warpsPerSm > 0) {
                long threads = (long) Math.max(1, e.block[0]) * Math.max(1, e.block[1]) * Math.max(1, e.block[2]);
                gpuEvidence.occupancy(cols.device.get(cols.size() - 1), blocks, e.warpsPerSm, (int) ((threads + 31) / 32));
            }
        }
    }

    /** GPU index: {@code args.device}, else the event's {@code pid} (GPU rows use the device index). */
    private int deviceOf(TraceEvent e) {
        int d;
        if (e.device != TraceEvent.NONE) {
            d = (int) e.device;
        } else {
            try {
                d = e.pidText == null ? 0 : Integer.parseInt(e.pidText.trim());
            } catch (NumberFormatException ex) {
                d = 0;
            }
        }
        if (devicesSeen.size() >= TraceLimits.MAX_DEVICES && !devicesSeen.contains(d)) throw TraceLimits.tooManyDevices();
        devicesSeen.add(d);
        return d;
    }

    /** Stream id: {@code args.stream}, else the GPU row's {@code tid} ({@code 7}, legacy {@code "stream 7"}). */
    private static int streamOf(TraceEvent e) {
        if (e.stream != TraceEvent.NONE) return (int) e.stream;
        String t = e.tidText == null ? "" : e.tidText.trim();
        int i = 0;
        while (i < t.length() && !Character.isDigit(t.charAt(i))) i++;
        int j = i;
        while (j < t.length() && Character.isDigit(t.charAt(j))) j++;
        try {
            return j > i && j - i < 10 ? Integer.parseInt(t.substring(i, j)) : 0;
        } catch (NumberFormatException ex) {
            return 0;
        }
    }

    private void memory(TraceEvent e, String name) {
        if (!"[memory]".equals(name) || e.deviceType != 1 || e.deviceId == TraceEvent.NONE) return;
        int dev = (int) e.deviceId;
        memoryEvents.merge(dev, 1L, Long::sum);
        if (e.totalAllocated != TraceEvent.NONE) peakAllocated.merge(dev, e.totalAllocated, Math::max);
        // "Total Reserved" is what the caching allocator holds: closest to what nvidia-smi reports
        // and to DLProf's "GPU memory used".
        if (e.totalReserved != TraceEvent.NONE) peakReserved.merge(dev, e.totalReserved, Math::max);
    }

    @Override
    public void deviceProperties(JsonNode devices) {
        this.devices = devices;
    }

    @Override
    public void distributedInfo(JsonNode info) {
        this.distributed = info;
    }

    @Override
    public void baseTimeNanoseconds(long ns) {
        this.baseTimeNs = ns;
    }

    @Override
    public void topLevel(String key, String value) {
        if (topLevel.size() < 64) topLevel.put(key, value.length() > TraceLimits.MAX_FIELD_CHARS
                ? value.substring(0, TraceLimits.MAX_FIELD_CHARS) : value);
    }

    @Override
    public void warning(String code, String message) {
        warnings.add(new String[] {code, message});
    }
}
