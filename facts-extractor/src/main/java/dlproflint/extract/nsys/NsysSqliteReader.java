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
import dlproflint.extract.common.PhaseTimer;
import dlproflint.extract.common.ReadDeadline;
import dlproflint.extract.common.Segments;
import dlproflint.extract.common.StepGpuSweep;
import dlproflint.extract.common.StepTimeline;
import dlproflint.extract.common.StepWindow;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.KernelFact;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.Percent;
import dlproflint.facts.ProfileFacts;

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
        // the first pass learnt which tables are out of order: the second never restarts after streaming instances;
        // and which steps it aggregated (the steady window), so the second streams the instances of those
        extract(file, options, sink, first, first.unsorted, ReadProgress.NONE);
    }

    /** The HTML views' read: the timeline window and the memory curve ({@link NsysDetail}). */
    @Override
    public dlproflint.detail.ProfileDetail detail(Path file, ReadOptions options, ProfileFacts facts) throws ProfileException {
        return NsysDetail.read(file, options, facts);
    }

    /** A read's facts, and what a second read streaming instances reuses: op ids, unsorted tables, aggregated steps. */
    private record Result(ProfileFacts facts, Map<String, String> opIds, Set<String> unsorted, int[] range) {
    }

    private Result extract(Path file, ReadOptions options, InstanceSink sink, Result first,
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
                        return extract(db, file, opts, sink, first, progress);
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

    private Result extract(NsysDatabase db, Path file, ReadOptions opts, InstanceSink sink, Result first,
                           ReadProgress progress) throws Exception {
        for (String t : TIMED_TABLES) {
            if (db.has(t) && (!db.hasColumn(t, "start") || !db.hasColumn(t, "end"))) {
                throw new ProfileException(file, "table " + t + " has no start/end columns; not an Nsight Systems export layout");
            }
        }
        Timing timing = new Timing(progress);
        // A second connection runs, on a second core, the passes that need nothing of the one in progress: the NVTX
        // rows read ahead of the evidence pass, the host's time per step beside the GPU sweep. The profile's end comes
        // from the passes' own reads (ProfileEnd).
        // the spool is closed (its file removed) after the pass beside has stopped reading it
        try (NvtxSpool nvtx = new NvtxSpool(); Tapes tapes = new Tapes(); NsysDatabase side = db.sibling();
             Beside beside = new Beside(side)) {
            Map<String, String> meta = SystemScan.exportMeta(db);
            Map<String, String> dl = SystemScan.dlprofSystemInfo(db);
            Map<String, String> env = SystemScan.systemEnv(db);
            List<GpuInfo> gpus = SystemScan.gpus(db);
            timing.lap("metadata");
            return extract(db, beside, nvtx, tapes, timing, file, opts, sink, first, meta, dl, env, gpus, new ProfileEnd(db));
        }
    }

    private Result extract(NsysDatabase db, Beside beside, NvtxSpool nvtx, Tapes tapes, Timing timing, Path file, ReadOptions opts, InstanceSink sink,
                           Result first, Map<String, String> meta, Map<String, String> dl,
                           Map<String, String> env, List<GpuInfo> gpus, ProfileEnd profileEnd) throws Exception {
        ProfileFacts.Builder b = ProfileFacts.builder();
        // pass 1: evidence for the iterations (NVTX ranges), then one decision for every format
        String userKey = opts.keyNode() == null || opts.keyNode().isBlank() ? null : opts.keyNode();
        IterationEvidence evidence;
        NvtxScan evidenceScan;
        for (int attempt = 0; ; attempt++) {
            // the evidence pass is the one read of NVTX_EVENTS, in storage order, which it puts in order in the spool
            // every later pass reads; only a table too far from order is read again, sorted by SQLite
            evidenceScan = new NvtxScan();
            try {
                evidence = evidenceScan.run(db, beside, () -> new IterationEvidence(userKey,
                        Iterations.defaultKeyNode("tensorflow")), profileEnd, nvtx);
                break;
            } catch (OrderedScan.OutOfOrder e) {
                if (attempt > 0) throw e; // sorted by SQLite the second time: cannot be out of order again
            }
        }
        // decided before the profile's end is known: the passes find it as they read the tables (ProfileEnd), and only the
        // last iteration's stop depends on it
        IterationSplit split = IterationDiscovery.decideOpenEnded(evidence, 0);
        timing.lap("iterations");
        // the iterations as far as the pass needs them: which step a moment falls in does not depend on the last stop
        Iterations starts = split.iterations();
        boolean userRange = opts.iterStart() != null || opts.iterStop() != null;
        int[] range = split.aggregation(opts.iterStart(), opts.iterStop());
        // pass 2: correlation. Without a range from the user, the first steps are kept apart until the steady window
        // (which needs every step's GPU span, measured by this pass) says whether they are warm-up.
        Segments segments = first != null ? Segments.of(first.range())
                : userRange ? Segments.of(range) : new Segments(0, starts.count() - 1, StepWindow.maxLeftOut(starts.count()));
        // DLProf PyTorch plugin markers (cheap probe): ops are per call site and occurrence, as DLProf made them
        // (the evidence pass saw every range's text: no scan of the table of its own)
        boolean occurrenceOps = evidenceScan.traceMarkerText;
        CorrelationPass pass;
        // the kernel table is read on a third connection and thread, ahead of the pass, the runtime table on a fourth;
        // the kernel rows and the calls' times as those reads take them are kept for the GPU and host sweeps (no second
        // read of either table)
        try (NsysDatabase third = db.sibling(); Beside ahead = new Beside(third);
             NsysDatabase fourth = db.sibling(); Beside callsAhead = new Beside(fourth)) {
            pass = new CorrelationPass(db, nvtx, ahead, callsAhead, starts, segments, profileEnd, occurrenceOps, sink,
                    first == null ? Map.of() : first.opIds(), sink == null, sink == null ? SelectedCalls.of(db) : null,
                    sink == null ? tapes : null);
            pass.run();
        }
        long end = profileEnd.get();
        Iterations its = split.endAt(end).iterations();
        timing.lap("correlation");
        // the host's time per step from the calls' times the pass kept, beside the rest
        Future<long[][]> host = sink != null ? null
                : beside.run(() -> TimelinePass.host(beside.db(), nvtx, tapes, StepTimeline.hostWindows(its), end));
        StepWindow.Decision window = StepWindow.decide(its, pass.gpuStart, pass.gpuEnd, userRange || first != null
                ? segments.range() : null);
        Aggregates sums = pass.aggregated(window.first());
        NvtxScan scan = pass.markers;
        scan.tensorRtDomain = evidenceScan.tensorRtDomain;
        String framework = scan.framework();
        Map<String, String> ids = sums.ops.ids();

        dlproflint.facts.ProfileInfo info = SystemScan.profileInfo(db, file.toString(), meta, dl, end);
        b.profile(info);
        if (dlproflint.extract.common.SchemaVersions.newer(info.schemaVersion(), dlproflint.extract.common.SchemaVersions.NSYS_MAJOR)) {
            b.warning("unknown-schema", dlproflint.extract.common.SchemaVersions.message("export schema", info.schemaVersion(),
                    dlproflint.extract.common.SchemaVersions.NSYS_MAJOR + ".x, nsys 2025.x"));
        }
        b.system(SystemScan.systemInfo(env, dl, framework));
        Map<Integer, GpuInfo> gpuById = new LinkedHashMap<>();
        for (GpuInfo g : gpus) gpuById.put(g.deviceId(), g);
        for (Integer d : pass.devices) gpuById.putIfAbsent(d, GpuInfo.unknown(d, -1));
        gpuById.replaceAll((d, g) -> pass.gpuEvidence.complete(g));
        gpuById.values().forEach(b::gpu);
        List<KernelFact> kernelRows = pass.kernels.facts(ids, pass.kept(window.first()));
        List<KernelFact> kernelFacts = kernelRows.stream().filter(java.util.Objects::nonNull).toList();
        NsysCallSites.Result stacks = NsysCallSites.of(db, sums.ops.facts(), kernelFacts, pass.apiSites);
        stacks.ops().forEach(b::op);
        kernelFacts.forEach(b::kernel);
        pass.iterationKernels.facts(kernelRows::get, window.first(), window.last()).forEach(b::iterationKernel);
        b.callSites(stacks.sites());
        sums.apiStats().forEach(b::apiStat);
        sums.memcpyStats().forEach(b::memcpyStat);
        sums.memsetStats().forEach(b::memsetStat);
        b.modelConfig(scan.modelConfig);
        b.markers(scan.markers());

        IterationSummary summary = split.summary(window.range());
        if (!split.found() && userKey == null && Iterations.defaultKeyNode(framework) != null) {
            // DLProf named the framework's default key node when it found none (TensorFlow: global_step)
            summary = new IterationSummary(Iterations.defaultKeyNode(framework), false, "default", summary.total(),
                    summary.aggStart(), summary.aggStop(), summary.avgDurationNs(), summary.stdDevNs(), summary.method(),
                    summary.candidates());
        }
        int[] aggregated = window.range();
        timing.lap("facts");
        if (sink == null) {
            // the GPU side of every step by launch, the gaps and busy bins, the host syncs' GPU idle: one GPU sweep
            StepTimeline timeline = new StepTimeline(its, split.stepNumbers());
            NsysTimelinePass calls = new NsysTimelinePass(db, its, aggregated, end, timeline);
            NsysTimelinePass.SyncCalls sync = calls.loadSyncCalls(pass.selected);
            GpuBusy busy = new GpuBusy(pass.spans, NsysTimelinePass.overheadByPid(db), sync);
            long ws = its.start(aggregated[0]);
            long we = aggregated[1] + 1 < its.count() ? its.start(aggregated[1] + 1) : its.stop(aggregated[1]);
            NsysHostSyncs hostSyncs = NsysHostSyncs.load(db, pass.selected, ws, we);
            StepGpuSweep steps = new StepGpuSweep(its.count());
            long unlinkedInPass = pass.launchSteps.byTime();
            TimelinePass.gpu(db, tapes, steps, pass.launchSteps, busy, hostSyncs);
            steps.finish();
            busy.finish(b);
            timing.lap("gpu busy");
            calls.collect(b, sync, pass.selected);
            if (db.has("NVTX_EVENTS")) timeline.dataLoader(evidenceScan.dataLoaderRanges);
            pass.streams.idleBreakdowns().forEach(b::idleBreakdown);
            b.kernelDurations(pass.streams.durations());
            b.launches(pass.streams.launches());
            if (hostSyncs != null) hostSyncs.collect(aggregatedSteps(its, aggregated, end, split.found()), b);
            b.rank(NsysDistributed.of(db));
            timeline.hostTime(beside.join(host));
            timing.lap("breakdown");
            // tensor-core kernel time is part of the eligible kernel time (the correlation pass counts it in both)
            timeline.write(window, steps, summary, new ArrayList<>(new TreeSet<>(gpuById.keySet())), true,
                    Percent.of(sums.tcKernelNs, sums.eligibleKernelNs), b);
            long unlinked = pass.launchSteps.byTime() - unlinkedInPass;
            if (unlinked > 0) {
                b.warning("gpu-work-unlinked", unlinked + " GPU activity records could not be linked to a "
                        + "launch call (no correlation id, or no CUDA API calls of their process in the export): they are "
                        + "given to the step their GPU start lies in");
            }
            if (steps.unattributed() > 0) {
                b.warning("launched-before-capture", steps.unattributed() + " GPU activities ("
                        + dlproflint.findings.Units.duration(steps.unattributedNs()) + " of GPU time) were launched before "
                        + "the capture began (no launch call in the export precedes their correlation ids): they belong "
                        + "to no captured step and are left out of every step's figures");
            }
        }
        timing.lap("steps");
        warnings(b, db, pass);
        split.warnings().forEach(w -> b.warning(w.code(), w.message()));
        return new Result(b.build(), new HashMap<>(ids), db.unsortedOrders(), aggregated);
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
        CorrelationPass.Anomalies a = pass.anomalies();
        if (a.unclosedRanges() > 0) {
            b.warning("unclosed-ranges", a.unclosedRanges() + " NVTX ranges were never closed; they are taken to end with the profile");
        }
        if (a.invertedTimes() > 0) {
            b.warning("negative-duration", a.invertedTimes() + " events end before they start (counted as 0 ns)");
        }
        if (a.orphanGpu() > 0) {
            b.warning("gpu-without-api", a.orphanGpu() + " GPU activities have no matching CUDA API call (correlationId)");
        }
        if (a.duplicateCorrelation() > 0) {
            b.warning("duplicate-correlation", a.duplicateCorrelation() + " GPU activities share a correlationId with an earlier API call");
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

    /** The CPU-side tables (their ends count towards the profile's, {@link ProfileEnd}). */
    static final List<String> CPU_TABLES = List.of("CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS");
    /** The tables every pass reads by time: each must have its start and end columns. */
    private static final List<String> TIMED_TABLES =
            java.util.stream.Stream.concat(CPU_TABLES.stream(), NsysDatabase.GPU_TABLES.stream()).toList();
}
