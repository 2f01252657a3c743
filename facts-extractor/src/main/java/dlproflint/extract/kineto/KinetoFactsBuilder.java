package dlproflint.extract.kineto;

import com.fasterxml.jackson.databind.JsonNode;
import dlproflint.extract.kineto.KinetoAggregator.GpuColumns;
import dlproflint.extract.common.IterationDiscovery;
import dlproflint.extract.common.IterationSplit;
import dlproflint.extract.common.Iterations;
import dlproflint.extract.common.LaunchSteps;
import dlproflint.extract.common.StepGpuSweep;
import dlproflint.extract.common.StepTimeline;
import dlproflint.extract.common.StepWindow;
import dlproflint.extract.kineto.KinetoAggregator.OpAgg;
import dlproflint.extract.kernels.KernelCatalogue;
import dlproflint.extract.kernels.KernelClass;
import dlproflint.extract.kernels.KernelMix;
import dlproflint.extract.common.TensorCores;
import dlproflint.facts.ApiStat;
import dlproflint.facts.CallSites;
import dlproflint.facts.CollectiveStat;
import dlproflint.facts.DataLoaderStat;
import dlproflint.facts.Direction;
import dlproflint.facts.GpuInfo;
import dlproflint.extract.common.IterationKernelTable;
import dlproflint.facts.Iteration;
import dlproflint.facts.KernelFact;
import dlproflint.facts.KernelKind;
import dlproflint.facts.Marker;
import dlproflint.facts.MemcpyStat;
import dlproflint.facts.MemsetStat;
import dlproflint.facts.ModelConfig;
import dlproflint.facts.OpFact;
import dlproflint.facts.Percent;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.Stat;
import dlproflint.facts.StatAccumulator;
import dlproflint.facts.SystemInfo;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** Turns a finished {@link KinetoAggregator} into facts: links, iterations, breakdown, statistics. */
final class KinetoFactsBuilder {
    private static final long SMALL_COPY_BYTES = 64 * 1024;

    private final KinetoAggregator a;
    private final Path file;
    private final ProfileFacts.Builder out = ProfileFacts.builder();
    private boolean[] tcByName;
    private KernelClass[] classByName;
    /** op direction and type with backward nodes paired to their forward ops */
    AutogradPairs pairs;
    private long start;
    private long end;
    /** the iterations are marked steps (or key-node instances), not the whole trace as one */
    private boolean stepsFound;
    /** The trace holds no CPU op or range ({@link #launchEvidence}): its kernels are the only ops there are. */
    private boolean opless;
    /** the first captured step's marker number, -1 when the steps carry none */
    private long firstStepNumber = -1;
    /** the steps' CPU windows */
    private Iterations its;
    /** the step that launched each kernel, copy and memset ({@link LaunchSteps#NONE}: launched before the capture) */
    int[] kernelStep = new int[0];
    int[] memcpyStep = new int[0];
    int[] memsetStep = new int[0];
    /** the aggregated steps (the steady window by default) */
    int aggFirst;
    int aggLast = -1;
    private IterationKernelTable iterationKernels;
    /** each iteration's number: its {@code ProfilerStep#N}, else its position (ranks of a job align on it) */
    private int[] stepNumbers = new int[0];

    KinetoFactsBuilder(KinetoAggregator aggregator, Path file) {
        this.a = aggregator;
        this.file = file;
    }

    ProfileFacts build() {
        classifyKernels();
        pairs = new AutogradPairs(a);
        start = a.traceSpanStart != Long.MAX_VALUE ? Math.min(a.traceSpanStart, a.minTs) : a.minTs;
        end = Math.max(a.traceSpanEnd, a.maxEnd);
        if (start == Long.MAX_VALUE || end == Long.MIN_VALUE) {
            start = 0;
            end = 0;
            out.warning("empty-trace", "the trace holds no timed events");
        }
        String schema = a.topLevel.get("schemaVersion");
        if (dlproflint.extract.common.SchemaVersions.newer(schema, dlproflint.extract.common.SchemaVersions.KINETO)) {
            out.warning("unknown-schema", dlproflint.extract.common.SchemaVersions.message("trace schemaVersion", schema,
                    String.valueOf(dlproflint.extract.common.SchemaVersions.KINETO)));
        }
        boolean legacy = a.legacyEvents > 0;
        out.profile(new ProfileInfo(file.toString(), "kineto",
                legacy ? "PyTorch autograd profiler (legacy Chrome trace, no Kineto)" : "PyTorch profiler (Kineto)", schema,
                a.baseTimeNs + start, a.baseTimeNs + end));
        if (legacy) {
            out.warning("legacy-trace", "a trace of PyTorch's autograd profiler without Kineto (a PyTorch build without it, "
                    + "such as Debian's python3-torch): it records CPU ops and record_function ranges only, no GPU kernels, "
                    + "copies, input shapes, call stacks or memory; record with a PyTorch build that has Kineto for those");
        }
        out.system(system());
        List<Integer> gpus = gpus();
        List<Iteration> iterations = steps(gpus);
        long[] window = aggregatedWindow(iterations);
        KinetoCallSites.Result stacks = a.sites.resolve(a.externalIdToOp);
        if (a.sites.pythonDropped > 0) {
            out.warning("python-stacks-partial", a.sites.pythonDropped + " python_function events beyond the first "
                    + KinetoCallSites.MAX_PYTHON_EVENTS + " were not used: source lines come from the start of the trace");
        }
        List<OpFact> built = ops(stacks);
        CallSites sites = stacks.sites();
        if (sites.recorded() && sites.step().isEmpty()) {
            sites = new CallSites(sites.source(), sites.hint(), dlproflint.extract.common.TrainingLoop.site(built), sites.apis());
        }
        out.callSites(sites);
        apis();
        memoryOps();
        dlproflint.extract.common.HostReplay.Result replay = PyTorchSignals.add(a, iterations, window,
                iterations.size() > 1 || stepsFound, collectives(), out);
        dataLoader(iterations, replay);
        out.rank(KinetoDistributed.of(a));
        out.modelConfig(new ModelConfig(a.dataLoaderWorkers != null && a.dataLoaderWorkers == 0 ? 0 : null,
                null, null, null, null, null, null, null, null));
        out.markers(new Marker(0, a.atenOps, 0, 0, 0, 0));
        convolutionCalls();
        for (String[] w : a.warnings) out.warning(w[0], w[1]);
        if (a.negativeDurations > 0) {
            out.warning("negative-duration", a.negativeDurations + " events had a negative duration (counted as 0)");
        }
        if (a.eventsWithoutTime > 0) {
            out.warning("missing-timestamp", a.eventsWithoutTime + " events had no usable timestamp and were skipped");
        }
        return out.build();
    }

    /** The catalogue's class of every kernel name (names of copies and API calls share the table; they are skipped). */
    private void classifyKernels() {
        classByName = new KernelClass[a.names.size()];
        tcByName = new boolean[a.names.size()];
        String[] shortByName = new String[a.names.size()];
        KernelMix mix = new KernelMix();
        for (int k = 0; k < a.kernels.size(); k++) {
            int n = a.kernels.nameIndex.get(k);
            if (classByName[n] == null) {
                classByName[n] = KernelCatalogue.builtin().classify(a.names.get(n));
                tcByName[n] = classByName[n].tensorCores();
                shortByName[n] = shortName(a.names.get(n));
            }
            a.gpuEvidence.kernel(a.kernels.device.get(k), classByName[n]);
            mix.add(shortByName[n], classByName[n], a.kernels.dur.get(k));
        }
        String unknown = mix.warning();
        if (unknown != null) out.warning(KernelMix.WARNING_CODE, unknown);
    }

    private SystemInfo system() {
        int rank = -1;
        int world = 0;
        if (a.distributed != null) {
            rank = a.distributed.path("rank").asInt(-1);
            world = a.distributed.path("world_size").asInt(0);
        }
        return new SystemInfo(null, a.topLevel.get("host_name"), cudaVersion(a.topLevel.get("cuda_driver_version")),
                cudaVersion(a.topLevel.get("cuda_runtime_version")), null, "pytorch", null, rank, world);
    }

    /** CUDA's integer version encoding: 12040 → "12.4". */
    private static String cudaVersion(String encoded) {
        if (encoded == null) return null;
        try {
            int v = Integer.parseInt(encoded.trim());
            return (v / 1000) + "." + (v % 1000) / 10;
        } catch (NumberFormatException e) {
            return encoded;
        }
    }

    /**
     * The convolution calls' kernels ({@link ConvCalls}); where none searched and the capture does not start at the
     * loop's first step, a warning that {@code torch.backends.cudnn.benchmark} cannot be read from it.
     */
    private void convolutionCalls() {
        dlproflint.facts.ConvolutionCalls c = ConvCalls.of(a, firstStepNumber);
        out.convolutionCalls(c);
        if (c != null && c.maxDistinctKernels() < ConvCalls.SEARCH_KERNELS && c.firstStepNumber() != 0) {
            out.warning("cudnn-benchmark-unknown", "torch.backends.cudnn.benchmark cannot be read from this capture: "
                    + (c.calls() == 1 ? "its one convolution call" : "its " + c.calls() + " convolution calls") + " launched at most "
                    + c.maxDistinctKernels() + " distinct kernel" + (c.maxDistinctKernels() == 1 ? "" : "s") + " per call,"
                    + " as with benchmark off and as every call after a shape's first with it on (cuDNN's algorithm search"
                    + " runs on the first call of each shape, launching " + ConvCalls.SEARCH_KERNELS + "+), and the capture "
                    + (c.firstStepNumber() < 0 ? "has no numbered steps to show that it holds the loop's first one"
                    : "starts at step " + c.firstStepNumber() + ", after the first") + "; dlprof/cudnn-benchmark-off does not"
                    + " judge it (set torch.backends.cudnn.benchmark = True for fixed input shapes)");
        }
    }

    // ---------------------------------------------------------------- steps (the measurement layer)

    /**
     * The steps: found from the trace's ranges ({@link IterationDiscovery}), every GPU activity given to the step that
     * launched it (its runtime call's correlation, {@link LaunchSteps}), then measured and windowed once for every
     * format ({@link StepWindow}, {@link StepTimeline}).
     */
    private List<Iteration> steps(List<Integer> gpus) {
        if (!a.evidence.hasRanges()) launchEvidence();
        IterationSplit split = IterationDiscovery.decide(a.evidence, start, end);
        stepNumbers = split.stepNumbers();
        long[] marked = split.markerNumbers();
        firstStepNumber = marked == null || marked.length == 0 ? -1 : marked[0];
        its = split.iterations();
        boolean userRange = a.options.iterStart() != null || a.options.iterStop() != null;
        int[] range = split.aggregation(a.options.iterStart(), a.options.iterStop());
        split.warnings().forEach(w -> out.warning(w.code(), w.message()));
        LaunchSteps launches = launchSteps();
        kernelStep = launchSteps(a.kernels, launches);
        memcpyStep = launchSteps(a.memcpys, launches);
        memsetStep = launchSteps(a.memsets, launches);
        int n = its.count();
        long[] gpuStart = new long[n];
        long[] gpuEnd = new long[n];
        java.util.Arrays.fill(gpuStart, -1);
        java.util.Arrays.fill(gpuEnd, -1);
        span(a.kernels, kernelStep, gpuStart, gpuEnd);
        span(a.memcpys, memcpyStep, gpuStart, gpuEnd);
        span(a.memsets, memsetStep, gpuStart, gpuEnd);
        StepWindow.Decision d = StepWindow.decide(its, gpuStart, gpuEnd, userRange ? range : null);
        aggFirst = d.first();
        aggLast = d.last();
        stepsFound = split.found();
        iterationKernels = new IterationKernelTable(n, aggFirst);
        StepGpuSweep sweep = new KinetoSteps(a).sweep(n, kernelStep, memcpyStep, memsetStep, tcByName, its);
        if (launches.byTime() > 0) timeAttributed(launches.byTime());
        if (sweep.unattributed() > 0) {
            out.warning("launched-before-capture", sweep.unattributed() + " GPU activities (" + dlproflint.findings.Units.duration(
                    sweep.unattributedNs()) + " of GPU time) were launched before the capture began (their launch calls are "
                    + "not in the trace): they belong to no captured step and are left out of every step's figures");
        }
        StepTimeline timeline = new StepTimeline(its, stepNumbers);
        long[][] host = new SortedPriorityTimeline(new long[][] {a.dataLoaderStart.sorted(), new long[0], a.cpuOpStart.sorted()},
                new long[][] {a.dataLoaderEnd.sorted(), new long[0], a.cpuOpEnd.sorted()}).flatten(StepTimeline.hostWindows(its));
        timeline.hostTime(host);
        if (a.evidence.hasRanges()) timeline.dataLoader(a.dataLoaderStart.sorted(), a.dataLoaderEnd.sorted());
        if (!a.apiStats.isEmpty()) {
            timeline.syncVisible();
            for (int k = 0; k < a.syncStart.size(); k++) timeline.sync(a.syncStart.get(k), a.syncEnd.get(k));
        }
        return timeline.write(d, sweep, split.summary(d.range()), gpus, false, tensorCoreUtilization(), out);
    }

    /**
     * A trace without CPU ops or ranges (captured with {@code activities=[ProfilerActivity.CUDA]} only) still holds the
     * host's launch calls: each kernel launch, named by its kernel, is step evidence then, so a loop's steps are found
     * from the kernel that starts each of them ({@link IterationDiscovery}'s repeating op) as from an op. What such a
     * capture cannot show (ops, their shapes, data loading) is said once.
     */
    private void launchEvidence() {
        GpuColumns k = a.kernels;
        if (k.size() == 0) return;
        String[] shortNames = new String[a.names.size()];
        // only names that run often enough to mark steps: a trace of many distinct kernels would otherwise keep a
        // family of instances per name
        int[] runs = new int[a.names.size()];
        for (int i = 0; i < k.size(); i++) runs[k.nameIndex.get(i)]++;
        // without any launch call in the trace (no CUDA runtime events), the kernels' own GPU times, a stream each
        boolean calls = a.launchCalls.size() > 0;
        long used = 0;
        for (int i = 0; i < k.size(); i++) {
            int n = k.nameIndex.get(i);
            if (runs[n] < IterationDiscovery.MIN_REPEATS) continue;
            int call = calls ? a.launchCalls.find(k.correlation.get(i)) : -1;
            if (calls && call < 0) continue; // launched before the capture
            if (shortNames[n] == null) shortNames[n] = shortName(a.names.get(n));
            if (calls) {
                a.evidence.range(shortNames[n], null, a.launchCalls.start(call), a.launchCalls.end(call), 0);
            } else {
                long start = k.start.get(i);
                a.evidence.range(shortNames[n], null, start, start + k.dur.get(i), k.stream.get(i));
            }
            used++;
        }
        opless = true;
        out.warning("no-cpu-ops", "the trace holds GPU work but no CPU ops or ranges (captured without ProfilerActivity.CPU):"
                + " steps are looked for in its " + used + (calls ? " launches of kernels that repeat" : " runs of kernels that"
                + " repeat (no launch calls either: on the GPU's clock)") + ", and what only ops show (which ops ran FP32 or with unaligned shapes, host"
                + " syncs by op, data loading) cannot be judged; record with activities=[ProfilerActivity.CPU,"
                + " ProfilerActivity.CUDA] for those");
    }

    private void timeAttributed(long n) {
        out.warning("gpu-work-unlinked", n + " GPU activities could not be linked to a launch call (no correlation id, "
                + "or no CUDA runtime events in the trace): they are given to the step their GPU start lies in");
    }

    /** The launch calls' steps, by correlation id (one process per trace). */
    private LaunchSteps launchSteps() {
        LaunchSteps steps = new LaunchSteps(its);
        LaunchCalls calls = a.launchCalls;
        ParallelSort.Order byId = ParallelSort.order(calls.size(), calls::correlation);
        for (int i = 0; i < calls.size(); i++) steps.call(0, byId.keys()[i], calls.start(byId.row(i)));
        return steps;
    }

    private static int[] launchSteps(GpuColumns cols, LaunchSteps steps) {
        int[] out = new int[cols.size()];
        for (int k = 0; k < out.length; k++) {
            long c = cols.correlation.get(k);
            out[k] = steps.stepOf(0, c, c != TraceEvent.NONE, cols.start.get(k));
        }
        return out;
    }

    private static void span(GpuColumns cols, int[] step, long[] first, long[] last) {
        for (int k = 0; k < cols.size(); k++) {
            int s = step[k];
            if (s < 0) continue;
            long st = cols.start.get(k);
            long en = st + cols.dur.get(k);
            if (first[s] < 0 || st < first[s]) first[s] = st;
            last[s] = Math.max(last[s], en);
        }
    }

    private boolean aggregatedStep(int step) {
        return step >= aggFirst && step <= aggLast;
    }

    /** The step GPU activity {@code k} of a table was launched in ({@link #kernelStep} and its siblings). */
    int stepOf(int table, int k) {
        return (table == 0 ? kernelStep : table == 1 ? memcpyStep : memsetStep)[k];
    }

    /** The catalogue's verdict for an interned kernel name (after {@link #build()}). */
    boolean usesTc(int nameIndex) {
        return tcByName[nameIndex];
    }

    /**
     * DLProf's tensor-core utilisation over the aggregated steps: tensor-core kernel time over the kernel time of
     * eligible ops; a tensor-core kernel is eligible work whatever its op (so the share cannot pass 100 %). A kernel
     * no op launched (a capture without CPU ops, {@code activities=[CUDA]}, or a launch outside every op) is eligible
     * when it is a GEMM, convolution or attention kernel: otherwise only its tensor-core kernels would be counted, and
     * an FP32 model's utilisation would read 100 %.
     */
    private double tensorCoreUtilization() {
        boolean[] eligibleOp = new boolean[a.opList.size()];
        for (OpAgg op : a.opList) eligibleOp[op.index] = TensorCores.opTypeEligible(pairs.type(op.index));
        long tcSum = 0;
        long eligibleSum = 0;
        for (int k = 0; k < a.kernels.size(); k++) {
            if (!aggregatedStep(kernelStep[k])) continue;
            long d = a.kernels.dur.get(k);
            boolean tc = tcByName[a.kernels.nameIndex.get(k)];
            long id = a.kernels.externalId.get(k);
            int op = id == TraceEvent.NONE ? -1 : a.externalIdToOp.get(id, -1);
            if (tc || (op >= 0 ? eligibleOp[op] : tensorCoreWork(classByName[a.kernels.nameIndex.get(k)].kind()))) {
                eligibleSum += d;
            }
            if (tc) tcSum += d;
        }
        return pct(tcSum, eligibleSum);
    }

    /** An aggregate's parts: its op's id (an interned text), the device and the kernel's interned name. */
    private record KernelKey(String opId, int device, int nameIdx) {
    }

    /** The kernels of one name that no op launched, as one {@code unassociated_<name>} op. */
    private static final class LaunchedAlone {
        final String id;
        final StatAccumulator gpu = new StatAccumulator();
        long tcNs;
        boolean tensorCoreWork;

        LaunchedAlone(String id) {
            this.id = id;
        }

        void add(long durNs, boolean tc, KernelKind kind) {
            gpu.add(durNs);
            if (tc) tcNs += durNs;
            tensorCoreWork |= tensorCoreWork(kind);
        }
    }

    private static boolean tensorCoreWork(KernelKind kind) {
        return kind.gemmOrConv() || kind == KernelKind.ATTENTION;
    }

    /** [from, to] of the aggregated iterations. */
    private long[] aggregatedWindow(List<Iteration> iterations) {
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        for (Iteration it : iterations) {
            if (!it.aggregated()) continue;
            from = Math.min(from, it.startNs());
            to = Math.max(to, it.endNs());
        }
        return from == Long.MAX_VALUE ? new long[] {start, end} : new long[] {from, to};
    }

    // ---------------------------------------------------------------- ops and kernels

    private List<OpFact> ops(KinetoCallSites.Result stacks) {
        List<OpFact> built = new ArrayList<>();
        int nOps = a.opList.size();
        StatAccumulator[] gpu = new StatAccumulator[nOps];
        long[] tcTime = new long[nOps];
        long[] kernelCalls = new long[nOps];
        for (int i = 0; i < nOps; i++) gpu[i] = new StatAccumulator();
        // each op's calls in the aggregated steps (a call belongs to the step its CPU event started in)
        StatAccumulator[] cpu = new StatAccumulator[nOps];
        for (int i = 0; i < nOps; i++) cpu[i] = new StatAccumulator();
        for (int e = 0; e < a.cpuOpIndex.size(); e++) {
            long st = a.cpuOpStart.get(e);
            if (aggregatedStep(its.indexOf(st))) cpu[a.cpuOpIndex.get(e)].add(a.cpuOpEnd.get(e) - st);
        }
        // per-call GPU time of the kernels launched in the aggregated steps: sort (External id, duration) pairs and
        // sum runs of equal ids
        int nk = a.kernels.size();
        long[] ids = new long[nk];
        long[] durs = new long[nk];
        int m = 0;
        for (int k = 0; k < nk; k++) {
            if (!aggregatedStep(kernelStep[k])) continue;
            ids[m] = a.kernels.externalId.get(k);
            durs[m++] = a.kernels.dur.get(k);
        }
        ids = java.util.Arrays.copyOf(ids, m);
        durs = java.util.Arrays.copyOf(durs, m);
        ParallelSort.sort(ids, durs);
        for (int k = 0; k < m; ) {
            long id = ids[k];
            long sum = 0;
            int j = k;
            while (j < m && ids[j] == id) sum += durs[j++];
            int op = id == TraceEvent.NONE ? -1 : a.externalIdToOp.get(id, -1);
            if (op >= 0) gpu[op].add(sum);
            k = j;
        }
        // one aggregate per (op, device, kernel name), looked up per kernel by its interned parts; listed below in the
        // order of its text key
        Map<KernelKey, KernelAgg> kernelAggs = new HashMap<>();
        Map<String, LaunchedAlone> unassociated = new TreeMap<>();
        LaunchedAlone[] aloneByName = new LaunchedAlone[a.names.size()];
        for (int k = 0; k < nk; k++) {
            int it = kernelStep[k];
            if (!aggregatedStep(it)) continue;
            int nameIdx = a.kernels.nameIndex.get(k);
            long id = a.kernels.externalId.get(k);
            int op = id == TraceEvent.NONE ? -1 : a.externalIdToOp.get(id, -1);
            long d = a.kernels.dur.get(k);
            String opId;
            if (op >= 0) {
                kernelCalls[op]++;
                if (tcByName[nameIdx]) tcTime[op] += d;
                opId = a.opList.get(op).name;
            } else {
                LaunchedAlone alone = aloneByName[nameIdx];
                if (alone == null) {
                    // kernel names that shorten alike are one op
                    alone = unassociated.computeIfAbsent("unassociated_" + shortName(a.names.get(nameIdx)), LaunchedAlone::new);
                    aloneByName[nameIdx] = alone;
                }
                alone.add(d, tcByName[nameIdx], classByName[nameIdx].kind());
                opId = alone.id;
            }
            int device = a.kernels.device.get(k);
            KernelAgg agg = kernelAggs.computeIfAbsent(new KernelKey(opId, device, nameIdx),
                    x -> new KernelAgg(nameIdx, opId, device, kernelAggs.size(), a.names.get(nameIdx)));
            agg.gpu.add(d);
            iterationKernels.add(it, agg.serial, d, a.kernels.start.get(k));
        }
        for (OpAgg op : a.opList) {
            int i = op.index;
            if (cpu[i].count() == 0 && kernelCalls[i] == 0) continue; // no call in the aggregated steps
            String type = pairs.type(i);
            // Only the op that launched GPU work is counted as tensor-core eligible: its wrappers
            // (aten::conv2d → aten::convolution → aten::cudnn_convolution) would count one op thrice.
            boolean eligible = kernelCalls[i] > 0 && TensorCores.opTypeEligible(type);
            OpFact fact = new OpFact(op.name, op.name, type, pairs.direction(i), cpu[i].count(),
                    cpu[i].toStat(), gpu[i].toStat(), Stat.EMPTY, Stat.EMPTY, eligible, tcTime[i] > 0, tcTime[i],
                    kernelCalls[i], KinetoNames.dataType(op.inputTypes), op.inputDims, stacks.ops().getOrDefault(i, List.of()));
            built.add(fact);
            out.op(fact);
        }
        // in a trace with no CPU op at all (captured without ProfilerActivity.CPU) the kernels are the only ops there are:
        // a GEMM, convolution or attention kernel is then tensor-core eligible work itself, as its op would have been
        for (Map.Entry<String, LaunchedAlone> u : unassociated.entrySet()) {
            LaunchedAlone l = u.getValue();
            Stat s = l.gpu.toStat();
            boolean eligible = opless && (l.tensorCoreWork || l.tcNs > 0);
            out.op(new OpFact(u.getKey(), u.getKey(), "cuda", Direction.NA, s.count(), Stat.EMPTY, s, Stat.EMPTY,
                    Stat.EMPTY, eligible, eligible && l.tcNs > 0, eligible ? l.tcNs : 0, s.count(), null, null, List.of()));
        }
        KernelFact[] bySerial = new KernelFact[kernelAggs.size()];
        List<KernelAgg> listed = new ArrayList<>(kernelAggs.values());
        listed.sort(Comparator.comparing(k -> k.listingKey));
        for (KernelAgg k : listed) {
            String longName = a.names.get(k.nameIdx);
            int[] dims = a.kernelLaunchDims.get(k.nameIdx);
            KernelFact f = new KernelFact(shortName(longName), longName, k.opId, k.device, k.gpu.toStat(), Stat.EMPTY,
                    tcByName[k.nameIdx], dims == null ? null : dims[0] + "," + dims[1] + "," + dims[2],
                    dims == null ? null : dims[3] + "," + dims[4] + "," + dims[5], classByName[k.nameIdx].precision(),
                    classByName[k.nameIdx].family(), classByName[k.nameIdx].kind());
            out.kernel(f);
            bySerial[k.serial] = f;
        }
        iterationKernels.facts(i -> bySerial[i]).forEach(out::iterationKernel);
        String sampled = iterationKernels.sampleWarning();
        if (sampled != null) out.warning("iteration-kernels-sampled", sampled);
        return built;
    }

    private static final class KernelAgg {
        final int nameIdx;
        final String opId;
        final int device;
        /** creation order, the row index {@link IterationKernelTable} knows it by */
        final int serial;
        /** the order the kernels are listed in: op, device, long name */
        final String listingKey;
        final StatAccumulator gpu = new StatAccumulator();

        KernelAgg(int nameIdx, String opId, int device, int serial, String longName) {
            this.nameIdx = nameIdx;
            this.opId = opId;
            this.device = device;
            this.serial = serial;
            this.listingKey = opId + "\u0000" + device + "\u0000" + longName;
        }
    }

    /**
     * The kernel's function name without namespace, template arguments, parameters or a return type, as
     * nsys's short name gives it: {@code void cudnn::detail::explicit_convolve_sgemm<float, int>(int, ...)} →
     * {@code explicit_convolve_sgemm}; {@code std::enable_if<...>::type internal::gemvx::kernel<...>(...)} → {@code kernel}.
     */
    static String shortName(String longName) {
        String n = longName.replace("(anonymous namespace)", "anonymous_namespace");
        int depth = 0;
        int nameStart = 0;
        int cut = n.length();
        for (int i = 0; i < n.length(); i++) {
            char c = n.charAt(i);
            if (c == '<') depth++;
            else if (c == '>' && depth > 0) depth--;
            else if (depth == 0 && c == ' ') nameStart = i + 1; // a return type ends at a top-level space
            else if (depth == 0 && c == '(') {
                cut = i;
                break;
            }
        }
        if (nameStart >= cut) nameStart = 0;
        String fn = n.substring(nameStart, cut);
        // template arguments of the function itself, then its namespaces
        StringBuilder plain = new StringBuilder();
        depth = 0;
        for (int i = 0; i < fn.length(); i++) {
            char c = fn.charAt(i);
            if (c == '<') depth++;
            else if (c == '>' && depth > 0) depth--;
            else if (depth == 0) plain.append(c);
        }
        String s = plain.toString().trim();
        int ns = s.lastIndexOf("::");
        if (ns >= 0) s = s.substring(ns + 2);
        s = s.trim();
        return s.isEmpty() ? longName : s;
    }

    // ---------------------------------------------------------------- GPUs and time breakdown

    /** The GPUs the trace describes and those that ran work, described; their ids, sorted. */
    private List<Integer> gpus() {
        TreeSet<Integer> ids = new TreeSet<>();
        Map<Integer, GpuInfo> infos = new LinkedHashMap<>();
        if (a.devices != null && a.devices.isArray()) {
            for (JsonNode d : a.devices) {
                int id = d.path("id").asInt(infos.size());
                long used = a.peakReserved.getOrDefault(id, a.peakAllocated.getOrDefault(id, -1L));
                infos.put(id, new GpuInfo(id, d.path("name").asText(GpuInfo.UNKNOWN_NAME),
                        d.has("numSms") ? d.path("numSms").asInt() : d.path("multiProcessorCount").asInt(),
                        d.path("totalGlobalMem").asLong(0),
                        d.has("computeMajor") ? d.path("computeMajor").asInt() : d.path("major").asInt(),
                        d.has("computeMinor") ? d.path("computeMinor").asInt() : d.path("minor").asInt(), used));
            }
        }
        TreeSet<Integer> seen = new TreeSet<>();
        for (GpuColumns cols : List.of(a.kernels, a.memcpys, a.memsets)) {
            for (int k = 0; k < cols.size(); k++) seen.add(cols.device.get(k));
        }
        if (!infos.isEmpty() && !seen.isEmpty() && seen.size() <= infos.size()
                && seen.stream().noneMatch(infos::containsKey)) {
            // ROCm traces can list logical ids in deviceProperties and physical ids on events
            // (HIP_VISIBLE_DEVICES): describe the devices that did the work with the listed properties.
            out.warning("device-id-mismatch", "GPU ids on events " + seen + " do not match deviceProperties ids "
                    + infos.keySet() + "; assuming they are the same devices in order");
            Map<Integer, GpuInfo> remapped = new LinkedHashMap<>();
            java.util.Iterator<GpuInfo> props = infos.values().iterator();
            for (int id : seen) {
                GpuInfo p = props.next();
                remapped.put(id, new GpuInfo(id, p.name(), p.smCount(), p.totalMemoryBytes(), p.computeMajor(),
                        p.computeMinor(), a.peakReserved.getOrDefault(id, a.peakAllocated.getOrDefault(id, -1L))));
            }
            infos = remapped;
        }
        ids.addAll(infos.keySet());
        ids.addAll(seen);
        for (int id : ids) {
            GpuInfo info = infos.get(id);
            if (info == null) info = GpuInfo.unknown(id, a.peakReserved.getOrDefault(id, a.peakAllocated.getOrDefault(id, -1L)));
            out.gpu(a.gpuEvidence.complete(info));
        }
        return new ArrayList<>(ids);
    }

    private static double pct(long part, long whole) {
        return Percent.of(part, whole);
    }

    // ---------------------------------------------------------------- API, memory, dataloader, comms

    private void apis() {
        for (Map.Entry<String, StatAccumulator> e : a.apiStats.entrySet()) {
            out.apiStat(new ApiStat(e.getKey(), dlproflint.extract.common.ApiNames.category(e.getKey()), e.getValue().toStat()));
        }
    }

    /** One copy or memset group (API, copy kind and memory kinds): its count, bytes, small host-to-device copies, times. */
    private static final class MemoryGroup {
        final String api;
        final String[] kinds;
        long count;
        long bytes;
        long small;
        final StatAccumulator gpu = new StatAccumulator();

        MemoryGroup(String api, String... kinds) {
            this.api = api;
            this.kinds = kinds;
        }
    }

    /** The copies and memsets launched in the aggregated steps, by API and kinds. */
    private void memoryOps() {
        Map<String, MemoryGroup> copies = new TreeMap<>();
        GpuColumns c = a.memcpys;
        for (int k = 0; k < c.size(); k++) {
            if (!aggregatedStep(memcpyStep[k])) continue;
            String api = api(c.correlation.get(k));
            String[] kinds = KinetoNames.memcpyKinds(a.names.get(c.nameIndex.get(k)));
            MemoryGroup g = copies.computeIfAbsent(api + "|" + String.join("|", kinds), x -> new MemoryGroup(api, kinds));
            long bytes = c.bytes.get(k);
            g.count++;
            g.bytes += bytes;
            if ("HtoD".equals(kinds[0]) && bytes <= SMALL_COPY_BYTES) g.small++;
            g.gpu.add(c.dur.get(k));
        }
        for (MemoryGroup g : copies.values()) {
            out.memcpyStat(new MemcpyStat(g.api, g.kinds[0], g.kinds[1], g.kinds[2], g.count, g.bytes, g.gpu.toStat(), g.small));
        }
        Map<String, MemoryGroup> sets = new TreeMap<>();
        GpuColumns m = a.memsets;
        for (int k = 0; k < m.size(); k++) {
            if (!aggregatedStep(memsetStep[k])) continue;
            String api = api(m.correlation.get(k));
            String kind = KinetoNames.memsetKind(a.names.get(m.nameIndex.get(k)));
            MemoryGroup g = sets.computeIfAbsent(api + "|" + kind, x -> new MemoryGroup(api, kind));
            g.count++;
            g.bytes += m.bytes.get(k);
            g.gpu.add(m.dur.get(k));
        }
        for (MemoryGroup g : sets.values()) out.memsetStat(new MemsetStat(g.api, g.kinds[0], g.count, g.bytes, g.gpu.toStat()));
    }

    private String api(long correlation) {
        int idx = correlation == TraceEvent.NONE ? -1 : a.correlationToMemApi.get(correlation, -1);
        return idx < 0 ? "unknown" : a.names.get(idx);
    }

    /** The DataLoader's calls, and what a loader that keeps up saves on the replay of the aggregated steps (if any). */
    private void dataLoader(List<Iteration> iterations, dlproflint.extract.common.HostReplay.Result replay) {
        if (a.dataLoaderCalls.count() == 0) return;
        CoveredTime loading = CoveredTime.of(a.dataLoaderStart.sorted(), a.dataLoaderEnd.sorted());
        long inSteps = 0;
        long stepTime = 0;
        int steps = 0;
        for (Iteration it : iterations) {
            if (!it.aggregated()) continue;
            stepTime += it.cpuNs();
            inSteps += loading.within(it.startNs(), it.endNs());
            steps++;
        }
        boolean replayed = replay != null && steps > 0 && replay.stepNs() > 0;
        out.dataLoader(new DataLoaderStat(a.dataLoaderWorkers, a.dataLoaderCalls.count(), a.dataLoaderCalls.total(),
                pct(inSteps, stepTime), replayed ? Math.round(replay.loadSavingNs() * steps) : -1,
                replayed ? replay.stepNs() : 0));
    }

    /** The collective kernels' counts, or null without them (and without a multi-rank job). */
    private CollectiveStat collectives() {
        long n = 0;
        long t = 0;
        long all = 0;
        for (int k = 0; k < a.kernels.size(); k++) {
            long d = a.kernels.dur.get(k);
            all += d;
            if (a.collectiveKernel(a.kernels.nameIndex.get(k))) {
                n++;
                t += d;
            }
        }
        if (n > 0 || (a.distributed != null && a.distributed.path("world_size").asInt(0) > 1)) {
            return new CollectiveStat(n, t, pct(t, all));
        }
        return null;
    }
}
