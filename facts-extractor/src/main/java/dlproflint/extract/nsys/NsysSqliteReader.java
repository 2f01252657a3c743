package dlproflint.extract.nsys;

import dlproflint.findings.OneLine;
import dlproflint.extract.FileSniff;
import dlproflint.facts.InstanceSink;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReader;
import dlproflint.extract.ReadOptions;
import dlproflint.extract.ReadProgress;
import dlproflint.extract.common.IterationDiscovery;
import dlproflint.extract.common.IterationEvidence;
import dlproflint.extract.common.IterationSplit;
import dlproflint.extract.common.Iterations;
import dlproflint.extract.common.StepActivity;
import dlproflint.extract.common.PhaseTimer;
import dlproflint.extract.common.PriorityTimeline;
import dlproflint.extract.common.ReadDeadline;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.KernelFact;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.Percent;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.TimeBreakdown;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Future;

/** Reads Nsight Systems SQLite exports (nsys export --type sqlite), 2021.3 through 2025.x. */
public final class NsysSqliteReader implements ProfileReader {
    public static final String FORMAT = "nsys-sqlite";

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public boolean accepts(Path file, FileSniff sniff) throws ProfileException {
        if (!sniff.isSqlite()) return false;
        try (NsysDatabase db = NsysDatabase.open(file)) {
            return isNsys(db);
        } catch (NsysDatabase.ViewInsteadOfTable e) {
            return true; // nsys-shaped: read() says what is wrong with it
        }
    }

    /** StringIds plus any nsys event/target/metadata table, and not a DLProf database (db_version, read_only_ops). */
    static boolean isNsys(NsysDatabase db) {
        if (db.has("db_version") || db.has("read_only_ops")) return false;
        if (!db.has("StringIds")) return false;
        for (String t : db.tables()) {
            if (t.startsWith("CUPTI_ACTIVITY_KIND_") || t.equals("NVTX_EVENTS") || t.startsWith("TARGET_INFO_")
                    || t.equals("EXPORT_META_DATA") || t.equals("META_DATA_EXPORT")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public ProfileFacts read(Path file, ReadOptions options) throws ProfileException {
        return read(file, options, ReadProgress.NONE);
    }

    /** Progress is by phase, weighted by the share of a typical read's time it takes (see {@link Timing}). */
    @Override
    public ProfileFacts read(Path file, ReadOptions options, ReadProgress progress) throws ProfileException {
        return extract(file, options, null, null, Set.of(), progress).facts;
    }

    /**
     * Two passes: the first computes the facts (and with them the op ids, which depend on first appearance);
     * the second streams every kernel/memcpy/memset with its op id and iteration, in launch order per process.
     */
    @Override
    public void streamInstances(Path file, ReadOptions options, InstanceSink sink) throws ProfileException {
        Result first = extract(file, options, null, null, Set.of(), ReadProgress.NONE);
        // the first pass learnt which tables are out of order: the second never restarts after streaming instances
        extract(file, options, sink, first.opIds, first.unsorted, ReadProgress.NONE);
    }

    /** The HTML views' read: the timeline window and the memory curve ({@link NsysDetail}). */
    @Override
    public dlproflint.detail.ProfileDetail detail(Path file, ReadOptions options, ProfileFacts facts) throws ProfileException {
        return NsysDetail.read(file, options, facts);
    }

    private record Result(ProfileFacts facts, Map<String, String> opIds, Set<String> unsorted) {
    }

    private Result extract(Path file, ReadOptions options, InstanceSink sink, Map<String, String> opIds,
                           Set<String> unsorted, ReadProgress progress) throws ProfileException {
        ReadOptions opts = options == null ? ReadOptions.DEFAULT : options;
        try (NsysDatabase db = NsysDatabase.open(file, ReadDeadline.start(file, opts))) {
            try {
                if (!isNsys(db)) {
                    throw new ProfileException(file, db.has("db_version") ? "is a DLProf database, not an Nsight Systems export"
                            : "SQLite database without Nsight Systems tables (expected StringIds and CUPTI_/NVTX_/TARGET_INFO_ tables)");
                }
                db.knowUnsorted(unsorted);
                while (true) {
                    try {
                        return extract(db, file, opts, sink, opIds, progress);
                    } catch (OrderedScan.OutOfOrder e) {
                        // a table is not stored in the order a pass needs (now known): run again, SQLite sorting it
                    }
                }
            } catch (NsysDatabase.ViewInsteadOfTable | dlproflint.extract.common.DeviceLimit.Exceeded e) {
                throw new ProfileException(file, e.getMessage());
            } catch (SQLException e) {
                throw db.fail("cannot read Nsight Systems export", e);
            } catch (ProfileException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new ProfileException(file, "malformed Nsight Systems export: " + OneLine.of(e), e);
            } catch (Exception e) {
                throw new ProfileException(file, "cannot read Nsight Systems export: " + OneLine.of(e), e);
            }
        }
    }

    private Result extract(NsysDatabase db, Path file, ReadOptions opts, InstanceSink sink, Map<String, String> knownIds,
                           ReadProgress progress) throws Exception {
        for (String t : TIMED_TABLES) {
            if (db.has(t) && (!db.hasColumn(t, "start") || !db.hasColumn(t, "end"))) {
                throw new ProfileException(file, "table " + t + " has no start/end columns; not an Nsight Systems export layout");
            }
        }
        Timing timing = new Timing(progress);
        // A second connection runs, on a second core, the passes that need nothing of the one in progress:
        // the end of the GPU tables beside the metadata and the CPU tables' end, the time breakdown beside the
        // correlation pass.
        try (NsysDatabase side = db.sibling(); Beside beside = new Beside(side)) {
            Future<Long> gpuEnd = beside.run(() -> profileEnd(side, NsysDatabase.GPU_TABLES));
            Map<String, String> meta = SystemScan.exportMeta(db);
            Map<String, String> dl = SystemScan.dlprofSystemInfo(db);
            Map<String, String> env = SystemScan.systemEnv(db);
            List<GpuInfo> gpus = SystemScan.gpus(db);
            long end = Math.max(profileEnd(db, CPU_TABLES), beside.join(gpuEnd));
            timing.lap("metadata");
            return extract(db, beside, timing, file, opts, sink, knownIds, meta, dl, env, gpus, end);
        }
    }

    private Result extract(NsysDatabase db, Beside beside, Timing timing, Path file, ReadOptions opts, InstanceSink sink,
                           Map<String, String> knownIds, Map<String, String> meta, Map<String, String> dl,
                           Map<String, String> env, List<GpuInfo> gpus, long end) throws Exception {
        ProfileFacts.Builder b = ProfileFacts.builder();
        // pass 1: evidence for the iterations (NVTX ranges), then one decision for every format
        String userKey = opts.keyNode() == null || opts.keyNode().isBlank() ? null : opts.keyNode();
        IterationEvidence evidence = new IterationEvidence(userKey, Iterations.defaultKeyNode("tensorflow"));
        NvtxScan evidenceScan = new NvtxScan();
        evidenceScan.run(db, evidence, end);
        IterationSplit split = IterationDiscovery.decide(evidence, 0, end);
        timing.lap("iterations");
        Iterations its = split.iterations();
        int[] range = split.aggregation(opts.iterStart(), opts.iterStop());
        long ws = its.start(range[0]);
        long we = its.stop(range[1]);
        Future<TimelinePass> breakdown = beside.run(() -> TimelinePass.breakdown(beside.db(), ws, we, end));

        // pass 2: correlation
        // DLProf PyTorch plugin markers (cheap probe): ops are per call site and occurrence, as DLProf made them
        boolean occurrenceOps = db.hasColumn("NVTX_EVENTS", "text")
                && db.scalarLong("SELECT EXISTS (SELECT 1 FROM NVTX_EVENTS WHERE text LIKE '{''traceMarker''%')", 0) != 0;
        CorrelationPass pass = new CorrelationPass(db, its, range[0], range[1], end, occurrenceOps, sink,
                knownIds == null ? Map.of() : knownIds);
        if (sink == null) pass.measureStreams(ws, we);
        pass.run();
        timing.lap("correlation");
        NvtxScan scan = pass.markers;
        scan.detectDomains(db);
        String framework = scan.framework();
        Map<String, String> ids = pass.ops.ids();

        dlproflint.facts.ProfileInfo info = SystemScan.profileInfo(db, file.toString(), meta, dl, end);
        b.profile(info);
        if (dlproflint.extract.common.SchemaVersions.newer(info.schemaVersion(), dlproflint.extract.common.SchemaVersions.NSYS_MAJOR)) {
            b.warning("unknown-schema", dlproflint.extract.common.SchemaVersions.message("export schema", info.schemaVersion(),
                    dlproflint.extract.common.SchemaVersions.NSYS_MAJOR + ".x, nsys 2025.x"));
        }
        b.system(SystemScan.systemInfo(env, dl, framework));
        Map<Integer, GpuInfo> gpuById = new LinkedHashMap<>();
        for (GpuInfo g : gpus) gpuById.put(g.deviceId(), g);
        for (Integer d : pass.deviceCounts.keySet()) gpuById.putIfAbsent(d, GpuInfo.unknown(d, -1));
        gpuById.replaceAll((d, g) -> pass.gpuEvidence.complete(g));
        gpuById.values().forEach(b::gpu);
        List<KernelFact> kernelFacts = pass.kernels.facts(ids);
        NsysCallSites.Result stacks = NsysCallSites.of(db, pass.ops.facts(), kernelFacts, pass.apiSites);
        stacks.ops().forEach(b::op);
        kernelFacts.forEach(b::kernel);
        pass.iterationKernels.facts(kernelFacts::get).forEach(b::iterationKernel);
        b.callSites(stacks.sites());
        pass.apiStats().forEach(b::apiStat);
        pass.memcpyStats().forEach(b::memcpyStat);
        pass.memsetStats().forEach(b::memsetStat);
        b.modelConfig(scan.modelConfig);
        b.markers(scan.markers());

        IterationSummary summary = split.summary(range);
        if (!split.found() && userKey == null && Iterations.defaultKeyNode(framework) != null) {
            // DLProf named the framework's default key node when it found none (TensorFlow: global_step)
            summary = new IterationSummary(Iterations.defaultKeyNode(framework), false, "default", summary.total(),
                    summary.aggStart(), summary.aggStop(), summary.avgDurationNs(), summary.stdDevNs(), summary.method(),
                    summary.candidates());
        }
        b.iterationSummary(summary);

        // time breakdown and GPU usage over the aggregation window, averaged over all visible GPUs
        List<Integer> devices = new ArrayList<>(new TreeSet<>(gpuById.keySet()));
        TimelinePass sweep = beside.join(breakdown);
        timing.lap("breakdown");
        List<PriorityTimeline.Result> results = new ArrayList<>();
        if (devices.isEmpty()) results.add(sweep.result(null));
        for (Integer d : devices) results.add(sweep.result(d));
        double[] pct = new double[TimelinePass.CATEGORIES + 2];
        for (int i = 0; i < results.size(); i++) {
            PriorityTimeline.Result r = results.get(i);
            accumulate(pct, r);
            if (devices.isEmpty()) continue;
            int d = devices.get(i);
            long[] c = pass.deviceCounts.getOrDefault(d, new long[3]);
            long window = Math.max(0, we - ws);
            b.gpuUsage(new GpuUsage(d, c[0], c[1], c[2], r.masked()[1], window,
                    Percent.of(r.masked()[0], window)));
        }
        for (int i = 0; i < pct.length; i++) pct[i] /= results.size();
        // tensor-core kernel time is part of the eligible kernel time (CorrelationPass counts it in both)
        double tcUtil = Percent.of(pass.tcKernelNs, pass.eligibleKernelNs);
        b.breakdown(new TimeBreakdown(Math.max(0, we - ws), tcUtil, pct[TimelinePass.CATEGORIES + 1],
                pct[TimelinePass.TC], pct[TimelinePass.KERNEL], pct[TimelinePass.MEMORY], pct[TimelinePass.DATALOADER],
                pct[TimelinePass.IO], pct[TimelinePass.CPU], pct[TimelinePass.CATEGORIES]));

        // the facts of the nsys and pytorch packs and the per-step activity (not needed when streaming instances)
        StepActivity steps = new StepActivity(its);
        if (sink == null) {
            NsysTimelinePass calls = new NsysTimelinePass(db, its, range, end, steps);
            NsysTimelinePass.SyncCalls sync = calls.loadSyncCalls();
            GpuBusy busy = new GpuBusy(pass.spans, NsysTimelinePass.overheadByPid(db), sync, its, steps);
            NsysSteps jobSteps = new NsysSteps(db, its, end);
            NsysHostSyncs hostSyncs = NsysHostSyncs.load(db, ws, we);
            TimelinePass.busy(db, busy, jobSteps, hostSyncs);
            busy.finish(b);
            timing.lap("gpu busy");
            calls.collect(b, sync);
            if (db.has("NVTX_EVENTS")) steps.dataLoader(evidenceScan.dataLoaderRanges);
            pass.streams.idleBreakdowns().forEach(b::idleBreakdown);
            b.kernelDurations(pass.streams.durations());
            b.launches(pass.streams.launches());
            if (hostSyncs != null) hostSyncs.collect(aggregatedSteps(its, range, end, split.found()), b);
            b.rank(NsysDistributed.of(db));
            jobSteps.finish(evidenceScan.dataLoaderRanges, b);
        }
        for (int i = 0; i < its.count(); i++) {
            boolean agg = i >= range[0] && i <= range[1];
            b.iteration(steps.iteration(i, agg, pass.iterKernels[i], pass.iterGpu[i], pass.iterTc[i], pass.iterMem[i]));
        }
        timing.lap("steps");
        warnings(b, db, pass);
        split.warnings().forEach(w -> b.warning(w.code(), w.message()));
        return new Result(b.build(), new HashMap<>(ids), db.unsortedOrders());
    }

    /** The aggregated iterations' windows, when the profile has steps (found by discovery); else none. */
    private static long[][] aggregatedSteps(Iterations its, int[] range, long end, boolean stepsFound) {
        if (!stepsFound && its.count() <= 1) return new long[0][];
        long[][] steps = new long[range[1] - range[0] + 1][];
        for (int i = range[0]; i <= range[1]; i++) {
            steps[i - range[0]] = new long[] {its.start(i), i + 1 < its.count() ? its.start(i + 1) : end};
        }
        return steps;
    }

    /**
     * Progress by phase: each phase's weight is its share of the 1M-launch benchmark's CPU (docs/benchmarks.md),
     * the correlation pass most; the phases' times on stderr with -Ddlproflint.timing=true ({@link PhaseTimer}).
     */
    private static final class Timing {
        private static final Map<String, Integer> WEIGHT = Map.of("iterations", 10, "correlation", 65,
                "breakdown", 5, "gpu busy", 18, "steps", 2);
        private final PhaseTimer timer = new PhaseTimer("nsys-reader");
        private final ReadProgress progress;
        private long done;

        Timing(ReadProgress progress) {
            this.progress = progress;
        }

        void lap(String phase) {
            done += WEIGHT.getOrDefault(phase, 0);
            progress.update(Math.min(done, 100), 100);
            timer.lap(phase);
        }
    }

    private static void accumulate(double[] pct, PriorityTimeline.Result r) {
        for (int c = 0; c < TimelinePass.CATEGORIES; c++) pct[c] += r.pct(c);
        pct[TimelinePass.CATEGORIES] += r.otherPct();
        pct[TimelinePass.CATEGORIES + 1] += Percent.of(r.masked()[0], r.window());
    }

    private static void warnings(ProfileFacts.Builder b, NsysDatabase db, CorrelationPass pass) {
        if (!db.has("CUPTI_ACTIVITY_KIND_KERNEL")) {
            b.warning("no-kernels", "the profile contains no CUDA kernels (table CUPTI_ACTIVITY_KIND_KERNEL absent)");
        }
        if (!db.has("CUPTI_ACTIVITY_KIND_RUNTIME")) {
            b.warning("no-cuda-api", "the profile contains no CUDA API calls (CUDA trace off or no CUDA work)");
        }
        if (!db.has("NVTX_EVENTS")) {
            b.warning("no-nvtx", "the profile contains no NVTX events: ops cannot be named, GPU work is unassociated");
        }
        if (!db.has("TARGET_INFO_GPU") && !db.has("TARGET_INFO_CUDA_GPU")) {
            b.warning("no-gpu-info", "the profile does not describe the target's GPUs");
        }
        String sampled = pass.iterationKernels.sampleWarning();
        if (sampled != null) b.warning("iteration-kernels-sampled", sampled);
        if (pass.unclosedRanges > 0) {
            b.warning("unclosed-ranges", pass.unclosedRanges + " NVTX ranges were never closed; they are taken to end with the profile");
        }
        if (pass.invertedTimes > 0) {
            b.warning("negative-duration", pass.invertedTimes + " events end before they start (counted as 0 ns)");
        }
        if (pass.orphanGpu > 0) {
            b.warning("gpu-without-api", pass.orphanGpu + " GPU activities have no matching CUDA API call (correlationId)");
        }
        if (pass.duplicateCorrelation > 0) {
            b.warning("duplicate-correlation", pass.duplicateCorrelation + " GPU activities share a correlationId with an earlier API call");
        }
        long declared = declaredBytes(db);
        long actual = db.file().toFile().length();
        if (declared > actual) {
            b.warning("truncated-file", "the file has " + actual + " bytes but its SQLite header declares " + declared
                    + ": it was cut short, facts may be incomplete");
        }
        String unknownKernels = pass.kernelMix.warning();
        if (unknownKernels != null) b.warning(dlproflint.extract.kernels.KernelMix.WARNING_CODE, unknownKernels);
    }

    /** Database size the SQLite header declares (page count × page size), 0 when unknown. */
    private static long declaredBytes(NsysDatabase db) {
        try {
            return db.scalarLong("PRAGMA page_count", 0) * db.scalarLong("PRAGMA page_size", 0);
        } catch (SQLException e) {
            return 0;
        }
    }

    /** The CPU-side tables, whose end one connection finds while the other finds the GPU side's. */
    private static final List<String> CPU_TABLES = List.of("CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS");
    /** The tables every pass reads by time: each must have its start and end columns. */
    private static final List<String> TIMED_TABLES =
            java.util.stream.Stream.concat(CPU_TABLES.stream(), NsysDatabase.GPU_TABLES.stream()).toList();

    /**
     * The last time recorded in {@code tables} (0 without any); over the CPU and GPU tables, the profile's end
     * (DLProf's wall clock runs from time 0 to it).
     */
    static long profileEnd(NsysDatabase db, List<String> tables) throws SQLException {
        long end = 0;
        for (String t : tables) {
            if (!db.has(t) || !db.hasColumn(t, "start")) continue;
            // one scan per table: the last end, or the last start where ends are missing (marks, unclosed ranges)
            String last = db.hasColumn(t, "end") ? "MAX(MAX(COALESCE(end, start)), MAX(start))" : "MAX(start)";
            end = Math.max(end, db.scalarLong("SELECT " + last + " FROM " + t, 0));
        }
        return end;
    }
}
