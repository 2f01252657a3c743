package dlproflint.reporters.json;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.List;
import java.util.Map;

/**
 * The JSON report document, schema version {@value #SCHEMA_VERSION}. One record per object of
 * {@code docs/json-report.md}; {@code dlproflint/reporters/json/report.schema.json} is the
 * machine-readable contract. Absent values are written as {@code null}, never left out, so every
 * object always has the same keys. Bump the minor version for added keys, the major for anything else.
 */
@JsonPropertyOrder({"schemaVersion", "tool", "packs", "rules", "summary", "profiles", "job"})
public record JsonReport(String schemaVersion, Tool tool, List<Pack> packs, List<Rule> rules, Counts summary,
                         List<Profile> profiles, Job job) {
    public static final String SCHEMA_VERSION = "1.4";

    /**
     * The cross-rank facts of a {@code dlprof-lint job} run (null otherwise); its findings are the one profile's.
     * Times are nanoseconds per step (means over the aligned steps); {@code spread} gives each per-rank mean's
     * distribution over the ranks.
     */
    @JsonPropertyOrder({"label", "worldSize", "worldSizeSource", "rankSource", "backend", "profilesGiven", "ranksRead",
            "missingRanks", "alignedSteps", "stepAlignment", "collectivesSeen", "overlapPct", "spread", "ranks",
            "collectives", "steps", "inputs", "notes"})
    public record Job(String label, int worldSize, String worldSizeSource, String rankSource, String backend,
                      int profilesGiven, int ranksRead, String missingRanks, int alignedSteps, String stepAlignment,
                      boolean collectivesSeen, double overlapPct, Map<String, Spread> spread, List<Rank> ranks,
                      List<Collective> collectives, List<RankStep> steps, List<Input> inputs, List<String> notes) {
    }

    @JsonPropertyOrder({"min", "p25", "median", "p75", "max", "mean"})
    public record Spread(long min, long p25, long median, long p75, long max, long mean) {
    }

    @JsonPropertyOrder({"rank", "profile", "steps", "stepNs", "computeNs", "commNs", "exposedCommNs", "dataLoaderNs",
            "idleNs", "waitNs", "workNs", "lastArrivals", "overlapPct"})
    public record Rank(int rank, String profile, int steps, long stepNs, long computeNs, long commNs, long exposedCommNs,
                       long dataLoaderNs, long idleNs, long waitNs, long workNs, int lastArrivals, double overlapPct) {
    }

    @JsonPropertyOrder({"kind", "host", "ranks", "callsPerStep", "bytesPerStep", "timeNs", "waitNs", "waitSharePct"})
    public record Collective(String kind, boolean host, int ranks, double callsPerStep, Long bytesPerStep, long timeNs,
                             long waitNs, double waitSharePct) {
    }

    @JsonPropertyOrder({"rank", "step", "stepNs", "computeNs", "commNs", "exposedCommNs", "dataLoaderNs", "idleNs", "waitNs"})
    public record RankStep(int rank, int step, long stepNs, long computeNs, long commNs, long exposedCommNs,
                           long dataLoaderNs, long idleNs, long waitNs) {
    }

    @JsonPropertyOrder({"profile", "format", "rank", "identifiedBy", "status", "note"})
    public record Input(String profile, String format, Integer rank, String identifiedBy, String status, String note) {
    }

    @JsonPropertyOrder({"name", "version", "informationUri"})
    public record Tool(String name, String version, String informationUri) {
    }

    @JsonPropertyOrder({"id", "version", "description", "source"})
    public record Pack(String id, String version, String description, String source) {
    }

    @JsonPropertyOrder({"id", "pack", "name", "severity", "category", "since", "summary", "helpUri",
            "frameworks", "inputs", "params"})
    public record Rule(String id, PackRef pack, String name, String severity, String category, String since,
                       String summary, String helpUri, List<String> frameworks, List<String> inputs,
                       Map<String, Object> params) {
    }

    @JsonPropertyOrder({"id", "version"})
    public record PackRef(String id, String version) {
    }

    @JsonPropertyOrder({"profiles", "findings", "error", "warning", "note", "suppressed"})
    public record Counts(int profiles, int findings, int error, int warning, int note, int suppressed) {
    }

    @JsonPropertyOrder({"name", "path", "format", "profilerVersion", "exportSchemaVersion", "startNs", "endNs",
            "system", "gpus", "metrics", "counts", "warnings", "findings", "comparison"})
    public record Profile(String name, String path, String format, String profilerVersion,
                          String exportSchemaVersion, long startNs, long endNs, SystemFacts system, List<Gpu> gpus,
                          Metrics metrics, Counts counts, List<Warning> warnings, List<Finding> findings,
                          Comparison comparison) {
    }

    /** {@code compare}'s view of this (head) profile against a base run; null in a plain lint. Since 1.1. */
    @JsonPropertyOrder({"basePath", "baseFormat", "basis", "baseSteps", "headSteps", "matchedBy", "shared", "baseCount",
            "headCount", "overlapPct", "related", "basePaths", "headPaths", "metrics", "ops", "kernels"})
    public record Comparison(String basePath, String baseFormat, String basis, int baseSteps, int headSteps,
                             String matchedBy, int shared, int baseCount, int headCount, Double overlapPct,
                             boolean related, List<String> basePaths, List<String> headPaths, List<MetricDelta> metrics,
                             List<OpDelta> ops, List<KernelDelta> kernels) {
    }

    @JsonPropertyOrder({"metric", "unit", "higherIsWorse", "base", "head", "baseSamples", "headSamples", "baseCenter",
            "headCenter", "change", "changePct", "spread", "spreads", "pValue", "noise", "baseRuns", "headRuns"})
    public record MetricDelta(String metric, String unit, boolean higherIsWorse, Double base, Double head,
                              int baseSamples, int headSamples, Double baseCenter, Double headCenter, Double change,
                              Double changePct, Double spread, Double spreads, Double pValue, String noise, int baseRuns,
                              int headRuns) {
    }

    @JsonPropertyOrder({"name", "baseId", "headId", "type", "baseNsPerStep", "headNsPerStep", "growthNs", "ratio"})
    public record OpDelta(String name, String baseId, String headId, String type, Double baseNsPerStep,
                          Double headNsPerStep, Double growthNs, Double ratio) {
    }

    @JsonPropertyOrder({"name", "key", "headOpId", "baseNsPerStep", "headNsPerStep", "growthNs", "appeared", "vanished",
            "baseTensorCores", "headTensorCores"})
    public record KernelDelta(String name, String key, String headOpId, Double baseNsPerStep, Double headNsPerStep,
                              Double growthNs, boolean appeared, boolean vanished, boolean baseTensorCores,
                              boolean headTensorCores) {
    }

    @JsonPropertyOrder({"cpuModel", "hostname", "driverVersion", "cudaVersion", "cudnnVersion", "framework",
            "frameworkVersion", "distributedRank", "worldSize"})
    public record SystemFacts(String cpuModel, String hostname, String driverVersion, String cudaVersion,
                         String cudnnVersion, String framework, String frameworkVersion, int distributedRank,
                         int worldSize) {
    }

    /** A GPU of the target, with its usage when the profile recorded activity on it. */
    @JsonPropertyOrder({"deviceId", "name", "computeCapability", "smCount", "totalMemoryBytes", "usedMemoryBytes",
            "used", "kernelCount", "kernelNs", "memoryOpCount", "busyNs", "spanNs", "utilizationPct"})
    public record Gpu(int deviceId, String name, String computeCapability, Integer smCount, Long totalMemoryBytes,
                      Long usedMemoryBytes, boolean used, long kernelCount, long kernelNs, long memoryOpCount,
                      long busyNs, long spanNs, Double utilizationPct) {
    }

    @JsonPropertyOrder({"wallNs", "gpuUtilizationPct", "tcUtilizationPct", "breakdown", "iterations"})
    public record Metrics(long wallNs, Double gpuUtilizationPct, Double tcUtilizationPct, Breakdown breakdown,
                          Iterations iterations) {
    }

    @JsonPropertyOrder({"tcKernelPct", "nonTcKernelPct", "memoryPct", "dataloaderPct", "ioPct", "cpuPct", "otherPct"})
    public record Breakdown(Double tcKernelPct, Double nonTcKernelPct, Double memoryPct, Double dataloaderPct,
                            Double ioPct, Double cpuPct, Double otherPct) {
    }

    @JsonPropertyOrder({"total", "aggregatedStart", "aggregatedStop", "aggregated", "avgDurationNs", "stdDevNs",
            "keyNode", "keyNodeFound", "keyNodeSource", "method", "candidates", "binding", "window", "leftOut", "windowNote"})
    public record Iterations(int total, int aggregatedStart, int aggregatedStop, int aggregated, Long avgDurationNs,
                             Long stdDevNs, String keyNode, boolean keyNodeFound, String keyNodeSource, String method,
                             List<IterationCandidate> candidates, String binding, String window, List<Integer> leftOut,
                             String windowNote) {
    }

    @JsonPropertyOrder({"keyNode", "kind", "instances", "medianPeriodNs", "periodVariationPct", "coveragePct"})
    public record IterationCandidate(String keyNode, String kind, int instances, long medianPeriodNs,
                                     Double periodVariationPct, Double coveragePct) {
    }

    @JsonPropertyOrder({"code", "message"})
    public record Warning(String code, String message) {
    }

    @JsonPropertyOrder({"ruleId", "pack", "severity", "category", "impact", "problem", "messageId", "data", "recommendation",
            "evidence", "subject", "location", "helpUri", "fingerprint"})
    public record Finding(String ruleId, PackRef pack, String severity, String category, Impact impact, String problem,
                          String messageId, Map<String, Object> data, String recommendation, Map<String, Object> evidence, Subject subject, Location location,
                          String helpUri, String fingerprint) {
    }

    /**
     * What the finding's problem costs: {@code lostNs} per step ({@code basis} "step") or over the analysed range
     * ("run"), its share of {@code periodNs}, the part a fix recovers, the SARIF rank, and the estimate model.
     */
    @JsonPropertyOrder({"basis", "lostNs", "periodNs", "sharePct", "savingNs", "savingPct", "rank", "model", "text"})
    public record Impact(String basis, long lostNs, long periodNs, double sharePct, long savingNs, double savingPct,
                         int rank, String model, String text) {
    }

    @JsonPropertyOrder({"kind", "key", "name", "ref"})
    public record Subject(String kind, String key, String name, String ref) {
    }

    @JsonPropertyOrder({"file", "line", "function"})
    public record Location(String file, Integer line, String function) {
    }
}
