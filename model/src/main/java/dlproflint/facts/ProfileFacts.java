package dlproflint.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Everything known about one profile. Readers build it with {@link #builder()}; the engine inserts
 * {@link #facts()} into the rule session. Lists are immutable and in a deterministic order. Parts a
 * format cannot provide stay empty (lists) or null ({@code dataLoader}, {@code collectives}, and the
 * PyTorch signals {@code distributed}, {@code kernelDurations}, {@code launches}, {@code hostSyncs},
 * {@code occupancy}, {@code stepSequence}, {@code inputCopies}): a missing signal is absent, never zero.
 * {@code rank}, {@code stepActivity} and {@code collectiveCalls} are what a rank contributes to a distributed
 * job's cross-rank facts ({@link JobFacts}).
 *
 * @param callSites  where the model's code issued the work, when the profile recorded call stacks (never null)
 * @param comparison what {@code compare} found against a base run; null except for the head of a comparison
 * @param rank       the rank's identity in a distributed job (rank, world size, backend, where it was found); null when
 *                   the profile says nothing about one
 */
public record ProfileFacts(ProfileInfo profile, SystemInfo system, List<GpuInfo> gpus,
                           List<GpuUsage> gpuUsage, List<OpFact> ops, List<KernelFact> kernels,
                           List<Iteration> iterations, List<IterationKernel> iterationKernels,
                           IterationSummary iterationSummary,
                           TimeBreakdown breakdown, List<ApiStat> apiStats,
                           List<MemcpyStat> memcpyStats, List<MemsetStat> memsetStats,
                           ModelConfig modelConfig, Marker markers, List<GpuTimeline> gpuTimelines,
                           List<GpuGap> gpuGaps, List<SyncApiStat> syncApiStats, List<AllocStat> allocStats,
                           DataLoaderStat dataLoader, CollectiveStat collectives,
                           DistributedSetup distributed, List<MemoryPeak> memoryPeaks,
                           KernelDurations kernelDurations, LaunchStat launches, List<IdleBreakdown> idleBreakdowns,
                           HostSyncStat hostSyncs, KernelOccupancy occupancy, StepKernelSequence stepSequence,
                           InputCopyStat inputCopies,
                           List<ExtractionWarning> warnings, CallSites callSites, Comparison comparison,
                           DistributedInfo rank, List<StepActivity> stepActivity,
                           List<CollectiveCalls> collectiveCalls, ProfilerOverhead profilerOverhead,
                           ConvolutionCalls convolutionCalls) {

    public ProfileFacts {
        gpus = List.copyOf(gpus);
        gpuUsage = List.copyOf(gpuUsage);
        ops = List.copyOf(ops);
        kernels = List.copyOf(kernels);
        iterations = List.copyOf(iterations);
        iterationKernels = List.copyOf(iterationKernels);
        apiStats = List.copyOf(apiStats);
        memcpyStats = List.copyOf(memcpyStats);
        memsetStats = List.copyOf(memsetStats);
        gpuTimelines = List.copyOf(gpuTimelines);
        gpuGaps = List.copyOf(gpuGaps);
        syncApiStats = List.copyOf(syncApiStats);
        allocStats = List.copyOf(allocStats);
        memoryPeaks = List.copyOf(memoryPeaks);
        idleBreakdowns = List.copyOf(idleBreakdowns);
        warnings = List.copyOf(warnings);
        if (callSites == null) callSites = CallSites.none(null);
        stepActivity = stepActivity == null ? List.of() : List.copyOf(stepActivity);
        collectiveCalls = collectiveCalls == null ? List.of() : List.copyOf(collectiveCalls);
    }

    /** Every fact object to insert into a rule session (this record's parts, flattened; absent singletons left out). */
    public Stream<Object> facts() {
        Stream<Object> singles = Stream.of(profile, system, iterationSummary, breakdown, modelConfig, markers,
                dataLoader, collectives, distributed, kernelDurations, launches, hostSyncs, occupancy, stepSequence,
                inputCopies, callSites, rank, profilerOverhead, convolutionCalls);
        return Stream.of(singles, gpus.stream(), gpuUsage.stream(), ops.stream(), kernels.stream(),
                        iterations.stream(), iterationKernels.stream(), apiStats.stream(), memcpyStats.stream(),
                        memsetStats.stream(), gpuTimelines.stream(), gpuGaps.stream(), syncApiStats.stream(),
                        allocStats.stream(), memoryPeaks.stream(), idleBreakdowns.stream(), warnings.stream(),
                        stepActivity.stream(), collectiveCalls.stream(),
                        comparison == null ? Stream.empty() : comparison.facts())
                .flatMap(s -> s.map(o -> (Object) o))
                .filter(java.util.Objects::nonNull);
    }

    /** The same facts about another file name (a profile read from a temporary copy names what the user gave). */
    public ProfileFacts withProfile(ProfileInfo info) {
        return new ProfileFacts(info, system, gpus, gpuUsage, ops, kernels, iterations, iterationKernels,
                iterationSummary, breakdown, apiStats, memcpyStats, memsetStats, modelConfig, markers, gpuTimelines,
                gpuGaps, syncApiStats, allocStats, dataLoader, collectives, distributed, memoryPeaks, kernelDurations,
                launches, idleBreakdowns, hostSyncs, occupancy, stepSequence, inputCopies, warnings, callSites,
                comparison, rank, stepActivity, collectiveCalls, profilerOverhead, convolutionCalls);
    }

    /** The same facts with other op and kernel rows (folded ones, see {@code FactRows}) and one more warning. */
    public ProfileFacts withRows(List<OpFact> newOps, List<KernelFact> newKernels, String warningCode, String warningMessage) {
        List<ExtractionWarning> w = new java.util.ArrayList<>(warnings);
        w.add(new ExtractionWarning(warningCode, warningMessage));
        return new ProfileFacts(profile, system, gpus, gpuUsage, newOps, newKernels, iterations, iterationKernels,
                iterationSummary, breakdown, apiStats, memcpyStats, memsetStats, modelConfig, markers, gpuTimelines,
                gpuGaps, syncApiStats, allocStats, dataLoader, collectives, distributed, memoryPeaks, kernelDurations,
                launches, idleBreakdowns, hostSyncs, occupancy, stepSequence, inputCopies, w, callSites, comparison, rank,
                stepActivity, collectiveCalls, profilerOverhead, convolutionCalls);
    }

    /** The head's facts with what {@code compare} found against a base run. */
    public ProfileFacts withComparison(Comparison c) {
        return new ProfileFacts(profile, system, gpus, gpuUsage, ops, kernels, iterations, iterationKernels,
                iterationSummary, breakdown, apiStats, memcpyStats, memsetStats, modelConfig, markers, gpuTimelines,
                gpuGaps, syncApiStats, allocStats, dataLoader, collectives, distributed, memoryPeaks, kernelDurations,
                launches, idleBreakdowns, hostSyncs, occupancy, stepSequence, inputCopies, warnings, callSites, c, rank, stepActivity,
                collectiveCalls, profilerOverhead, convolutionCalls);
    }

    /** The profile recorded GPU work: kernels, copies or memsets, on any GPU. */
    public boolean hasGpuWork() {
        return hasKernels() || !memcpyStats.isEmpty() || !memsetStats.isEmpty()
                || gpuUsage.stream().anyMatch(GpuUsage::used);
    }

    public boolean hasKernels() {
        return !kernels.isEmpty();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Mutable builder; unset singletons default to "unknown" values. */
    public static final class Builder {
        private ProfileInfo profile;
        private SystemInfo system = SystemInfo.unknown();
        private final List<GpuInfo> gpus = new ArrayList<>();
        private final List<GpuUsage> gpuUsage = new ArrayList<>();
        private final List<OpFact> ops = new ArrayList<>();
        private final List<KernelFact> kernels = new ArrayList<>();
        private final List<Iteration> iterations = new ArrayList<>();
        private final List<IterationKernel> iterationKernels = new ArrayList<>();
        private IterationSummary iterationSummary = IterationSummary.none(0, 0, List.of());
        private TimeBreakdown breakdown = new TimeBreakdown(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        private final List<ApiStat> apiStats = new ArrayList<>();
        private final List<MemcpyStat> memcpyStats = new ArrayList<>();
        private final List<MemsetStat> memsetStats = new ArrayList<>();
        private ModelConfig modelConfig = ModelConfig.unknown();
        private Marker markers = Marker.none();
        private final List<GpuTimeline> gpuTimelines = new ArrayList<>();
        private final List<GpuGap> gpuGaps = new ArrayList<>();
        private final List<SyncApiStat> syncApiStats = new ArrayList<>();
        private final List<AllocStat> allocStats = new ArrayList<>();
        private DataLoaderStat dataLoader;
        private CollectiveStat collectives;
        private DistributedSetup distributed;
        private final List<MemoryPeak> memoryPeaks = new ArrayList<>();
        private KernelDurations kernelDurations;
        private LaunchStat launches;
        private final List<IdleBreakdown> idleBreakdowns = new ArrayList<>();
        private HostSyncStat hostSyncs;
        private KernelOccupancy occupancy;
        private StepKernelSequence stepSequence;
        private InputCopyStat inputCopies;
        private ProfilerOverhead profilerOverhead;
        private ConvolutionCalls convolutionCalls;
        private final List<ExtractionWarning> warnings = new ArrayList<>();
        private CallSites callSites;
        private DistributedInfo rank;
        private final List<StepActivity> stepActivity = new ArrayList<>();
        private final List<CollectiveCalls> collectiveCalls = new ArrayList<>();

        public Builder profile(ProfileInfo v) { profile = v; return this; }
        public Builder system(SystemInfo v) { system = v; return this; }
        public Builder gpu(GpuInfo v) { gpus.add(v); return this; }
        public Builder gpuUsage(GpuUsage v) { gpuUsage.add(v); return this; }
        public Builder op(OpFact v) { ops.add(v); return this; }
        public Builder kernel(KernelFact v) { kernels.add(v); return this; }
        public Builder iteration(Iteration v) { iterations.add(v); return this; }
        public Builder iterationKernel(IterationKernel v) { iterationKernels.add(v); return this; }
        public Builder iterationSummary(IterationSummary v) { iterationSummary = v; return this; }
        public Builder breakdown(TimeBreakdown v) { breakdown = v; return this; }
        public Builder apiStat(ApiStat v) { apiStats.add(v); return this; }
        public Builder memcpyStat(MemcpyStat v) { memcpyStats.add(v); return this; }
        public Builder memsetStat(MemsetStat v) { memsetStats.add(v); return this; }
        public Builder modelConfig(ModelConfig v) { modelConfig = v; return this; }
        public Builder markers(Marker v) { markers = v; return this; }
        public Builder gpuTimeline(GpuTimeline v) { gpuTimelines.add(v); return this; }
        public Builder gpuGap(GpuGap v) { gpuGaps.add(v); return this; }
        public Builder syncApiStat(SyncApiStat v) { syncApiStats.add(v); return this; }
        public Builder allocStat(AllocStat v) { allocStats.add(v); return this; }
        public Builder dataLoader(DataLoaderStat v) { dataLoader = v; return this; }
        public Builder collectives(CollectiveStat v) { collectives = v; return this; }
        public Builder distributed(DistributedSetup v) { distributed = v; return this; }
        public Builder memoryPeak(MemoryPeak v) { memoryPeaks.add(v); return this; }
        public Builder kernelDurations(KernelDurations v) { kernelDurations = v; return this; }
        public Builder launches(LaunchStat v) { launches = v; return this; }
        public Builder idleBreakdown(IdleBreakdown v) { idleBreakdowns.add(v); return this; }
        public Builder hostSyncs(HostSyncStat v) { hostSyncs = v; return this; }
        public Builder occupancy(KernelOccupancy v) { occupancy = v; return this; }
        public Builder stepSequence(StepKernelSequence v) { stepSequence = v; return this; }
        public Builder inputCopies(InputCopyStat v) { inputCopies = v; return this; }
        public Builder profilerOverhead(ProfilerOverhead v) { profilerOverhead = v; return this; }
        public Builder convolutionCalls(ConvolutionCalls v) { convolutionCalls = v; return this; }
        public Builder warning(String code, String message) {
            warnings.add(new ExtractionWarning(code, message));
            return this;
        }

        public Builder callSites(CallSites v) { callSites = v; return this; }
        public Builder rank(DistributedInfo v) { rank = v; return this; }
        public Builder stepActivity(StepActivity v) { stepActivity.add(v); return this; }
        public Builder collectiveCalls(CollectiveCalls v) { collectiveCalls.add(v); return this; }

        public ProfileFacts build() {
            if (profile == null) throw new IllegalStateException("profile info is required");
            return new ProfileFacts(profile, system, gpus, gpuUsage, ops, kernels, iterations, iterationKernels,
                    iterationSummary, breakdown, apiStats, memcpyStats, memsetStats, modelConfig,
                    markers, gpuTimelines, gpuGaps, syncApiStats, allocStats, dataLoader, collectives, distributed,
                    memoryPeaks, kernelDurations, launches, idleBreakdowns, hostSyncs, occupancy, stepSequence,
                    inputCopies, warnings, callSites, null, rank, stepActivity, collectiveCalls, profilerOverhead, convolutionCalls);
        }
    }
}
