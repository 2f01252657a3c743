package dlproflint.reporters.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dlproflint.findings.Impact;
import dlproflint.findings.LintRun;
import dlproflint.findings.PackInfo;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.RuleMetadata;
import dlproflint.findings.Severity;
import dlproflint.facts.CollectiveSummary;
import dlproflint.findings.Units;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.JobFacts;
import dlproflint.facts.JobInfo;
import dlproflint.facts.JobInput;
import dlproflint.facts.RankSpread;
import dlproflint.facts.RankStats;
import dlproflint.facts.RankStep;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.StackFrame;
import dlproflint.facts.SystemInfo;
import dlproflint.facts.TimeBreakdown;
import dlproflint.reporters.EvidenceValues;
import dlproflint.findings.FindingOrder;
import dlproflint.reporters.ProfileNames;
import dlproflint.reporters.Reporter;
import dlproflint.reporters.SeverityCounts;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The machine-readable report: {@link JsonReport}, pretty-printed UTF-8 JSON, documented in docs/json-report.md. */
public final class JsonReporter implements Reporter {
    public static final String FORMAT = "json";
    public static final String INFORMATION_URI = "https://github.com/dlprof-lint/dlprof-lint";
    /** Class-path location of the JSON Schema describing {@link JsonReport}. */
    public static final String SCHEMA_RESOURCE = "/dlproflint/reporters/json/report.schema.json";

    private static final ObjectMapper MAPPER = dlproflint.reporters.SafeJson.mapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .build();

    @Override
    public void render(LintRun run, OutputStream out) throws IOException {
        JsonReport report = toReport(run);
        MAPPER.writeValue(out, report);
        out.write('\n');
        out.flush();
    }

    /** The document model, for callers (and tests) that want it without serialising. */
    public static JsonReport toReport(LintRun run) {
        List<JsonReport.Pack> packs = new ArrayList<>();
        for (PackInfo p : run.packs()) packs.add(new JsonReport.Pack(p.id(), p.version(), p.description(), p.source()));
        List<RuleMetadata> rules = new ArrayList<>(run.rules());
        rules.sort(Comparator.comparing(RuleMetadata::id, Comparator.nullsFirst(Comparator.naturalOrder())));
        List<JsonReport.Rule> ruleList = new ArrayList<>();
        for (RuleMetadata r : rules) {
            ruleList.add(new JsonReport.Rule(r.id(), new JsonReport.PackRef(r.packId(), r.packVersion()), r.name(),
                    label(r.severity()), r.category(), r.since(), r.summary(), r.helpUri(),
                    r.frameworks() == null ? List.of() : r.frameworks(), r.inputs() == null ? List.of() : r.inputs(),
                    new TreeMap<>(r.paramDefaults())));
        }
        List<String> names = ProfileNames.stems(run.results());
        List<JsonReport.Profile> profiles = new ArrayList<>();
        for (int i = 0; i < run.results().size(); i++) profiles.add(profile(names.get(i), run.results().get(i)));
        SeverityCounts total = SeverityCounts.total(run.results());
        return new JsonReport(JsonReport.SCHEMA_VERSION,
                new JsonReport.Tool("dlprof-lint", run.toolVersion(), INFORMATION_URI),
                packs, ruleList, counts(run.results().size(), total), profiles, run.isJob() ? job(run.job().facts()) : null);
    }

    private static JsonReport.Job job(JobFacts f) {
        JobInfo j = f.job();
        Map<String, JsonReport.Spread> spread = new LinkedHashMap<>();
        spread.put("stepNs", spread(j.stepNs()));
        spread.put("computeNs", spread(j.computeNs()));
        spread.put("commNs", spread(j.commNs()));
        spread.put("exposedCommNs", spread(j.exposedCommNs()));
        spread.put("dataLoaderNs", spread(j.dataLoaderNs()));
        spread.put("idleNs", spread(j.idleNs()));
        spread.put("waitNs", spread(j.waitNs()));
        spread.put("workNs", spread(j.workNs()));
        List<JsonReport.Rank> ranks = new ArrayList<>();
        for (RankStats r : f.ranks()) {
            ranks.add(new JsonReport.Rank(r.rank(), r.profile(), r.steps(), Math.round(r.stepNs()), Math.round(r.computeNs()),
                    Math.round(r.commNs()), Math.round(r.exposedCommNs()), Math.round(r.dataLoaderNs()), Math.round(r.idleNs()),
                    Math.round(r.waitNs()), Math.round(r.workNs()), r.lastArrivals(), r.overlapPct()));
        }
        List<JsonReport.Collective> collectives = new ArrayList<>();
        for (CollectiveSummary c : f.collectives()) {
            collectives.add(new JsonReport.Collective(c.kind().label(), c.host(), c.ranks(), c.callsPerStep(),
                    c.bytesPerStep() < 0 ? null : Math.round(c.bytesPerStep()), Math.round(c.timeNs()), Math.round(c.waitNs()),
                    c.waitSharePct()));
        }
        List<JsonReport.RankStep> steps = new ArrayList<>();
        for (RankStep s : f.steps()) {
            steps.add(new JsonReport.RankStep(s.rank(), s.step(), s.stepNs(), s.computeNs(), s.commNs(), s.exposedCommNs(),
                    s.dataLoaderNs(), s.idleNs(), s.waitNs()));
        }
        List<JsonReport.Input> inputs = new ArrayList<>();
        for (JobInput in : f.inputs()) {
            inputs.add(new JsonReport.Input(in.profile(), in.format(), in.rank() < 0 ? null : in.rank(), in.identifiedBy(),
                    in.status(), in.note()));
        }
        return new JsonReport.Job(j.label(), j.worldSize(), j.worldSizeSource(), j.rankSource(), j.backend(),
                j.profilesGiven(), j.ranksRead(), j.missingRanks(), j.alignedSteps(), j.stepAlignment(), j.collectivesSeen(),
                j.overlapPct(), spread, ranks, collectives, steps, inputs, f.notes());
    }

    private static JsonReport.Spread spread(RankSpread s) {
        return new JsonReport.Spread(Math.round(s.min()), Math.round(s.p25()), Math.round(s.median()), Math.round(s.p75()),
                Math.round(s.max()), Math.round(s.mean()));
    }

    private static JsonReport.Counts counts(int profiles, SeverityCounts c) {
        return new JsonReport.Counts(profiles, c.findings(), c.error(), c.warning(), c.note(), c.suppressed());
    }

    private static JsonReport.Profile profile(String name, ProfileResult r) {
        ProfileFacts f = r.facts();
        ProfileInfo p = f.profile();
        SystemInfo s = f.system();
        List<JsonReport.Warning> warnings = new ArrayList<>();
        f.warnings().forEach(w -> warnings.add(new JsonReport.Warning(w.code(), w.message())));
        List<JsonReport.Finding> findings = new ArrayList<>();
        for (dlproflint.findings.Finding x : FindingOrder.sorted(r.findings())) findings.add(finding(x));
        return new JsonReport.Profile(name, p.path(), p.format(), p.profilerVersion(), p.schemaVersion(),
                p.startNs(), p.endNs(),
                new JsonReport.SystemFacts(s.cpuModel(), s.hostname(), s.driverVersion(), s.cudaVersion(),
                        s.cudnnVersion(), s.framework(), s.frameworkVersion(), s.distributedRank(), s.worldSize()),
                gpus(f), metrics(f), counts(1, SeverityCounts.of(r)), warnings, findings, comparison(f.comparison()));
    }

    private static JsonReport.Comparison comparison(dlproflint.facts.Comparison c) {
        if (c == null) return null;
        List<JsonReport.MetricDelta> metrics = new ArrayList<>();
        for (dlproflint.facts.MetricDelta d : c.metrics()) {
            boolean both = d.present();
            metrics.add(new JsonReport.MetricDelta(d.metric(), d.unit(), d.higherIsWorse(), finite(d.base()), finite(d.head()),
                    d.baseSamples(), d.headSamples(), finite(d.baseCenter()), finite(d.headCenter()),
                    both ? finite(d.shift()) : null, both ? finite(d.worseByPct()) : null,
                    d.samples() > 0 ? finite(d.spread()) : null, d.samples() > 0 && both ? finite(d.worseBySpreads()) : null,
                    finite(d.pValue()), d.noise(), d.baseRuns(), d.headRuns()));
        }
        List<JsonReport.OpDelta> ops = new ArrayList<>();
        for (dlproflint.facts.OpDelta o : c.ops()) {
            ops.add(new JsonReport.OpDelta(o.key(), o.baseId(), o.headId(), o.type(), finite(o.baseNs()), finite(o.headNs()),
                    finite(o.growthNs()), finite(o.ratio())));
        }
        List<JsonReport.KernelDelta> kernels = new ArrayList<>();
        for (dlproflint.facts.KernelDelta k : c.kernels()) {
            kernels.add(new JsonReport.KernelDelta(k.name(), k.key(), k.headOpId(), finite(k.baseNs()), finite(k.headNs()),
                    finite(k.growthNs()), k.appeared(), k.vanished(), k.baseTc(), k.headTc()));
        }
        return new JsonReport.Comparison(c.basePath(), c.baseFormat(), c.basis(), c.baseSteps(), c.headSteps(),
                c.matchedBy(), c.sharedCount(), c.baseCount(), c.headCount(), finite(c.overlapPct()), c.related(),
                c.basePaths(), c.headPaths(),
                metrics, ops, kernels);
    }

    private static Double finite(Double v) {
        return v == null ? null : finite(v.doubleValue());
    }

    /** GpuInfo and GpuUsage joined by device id, in device order. */
    private static List<JsonReport.Gpu> gpus(ProfileFacts f) {
        Map<Integer, GpuInfo> info = new TreeMap<>();
        for (GpuInfo g : f.gpus()) info.putIfAbsent(g.deviceId(), g);
        Map<Integer, GpuUsage> usage = new LinkedHashMap<>();
        for (GpuUsage u : f.gpuUsage()) usage.putIfAbsent(u.deviceId(), u);
        TreeMap<Integer, Boolean> ids = new TreeMap<>();
        info.keySet().forEach(id -> ids.put(id, true));
        usage.keySet().forEach(id -> ids.put(id, true));
        List<JsonReport.Gpu> out = new ArrayList<>();
        for (int id : ids.keySet()) {
            GpuInfo g = info.get(id);
            GpuUsage u = usage.get(id);
            out.add(new JsonReport.Gpu(id,
                    g == null ? null : g.name(),
                    g == null || !g.capabilityKnown() ? null : g.computeCapability(),
                    g == null ? null : g.smCount(),
                    g == null || g.totalMemoryBytes() <= 0 ? null : g.totalMemoryBytes(),
                    g == null || g.usedMemoryBytes() < 0 ? null : g.usedMemoryBytes(),
                    u != null && u.used(),
                    u == null ? 0 : u.kernelCount(), u == null ? 0 : u.kernelNs(),
                    u == null ? 0 : u.memoryOpCount(), u == null ? 0 : u.busyNs(), u == null ? 0 : u.spanNs(),
                    u == null ? null : finite(u.utilizationPct())));
        }
        return out;
    }

    private static JsonReport.Metrics metrics(ProfileFacts f) {
        TimeBreakdown b = f.breakdown();
        IterationSummary it = f.iterationSummary();
        long wall = b.wallNs() > 0 ? b.wallNs() : f.profile().wallNs();
        return new JsonReport.Metrics(wall, finite(b.gpuUtilizationPct()), finite(b.tcUtilizationPct()),
                new JsonReport.Breakdown(finite(b.tcKernelPct()), finite(b.nonTcKernelPct()), finite(b.memoryPct()),
                        finite(b.dataloaderPct()), finite(b.ioPct()), finite(b.cpuPct()), finite(b.otherPct())),
                new JsonReport.Iterations(it.total(), it.aggStart(), it.aggStop(), it.aggregated(),
                        roundedNs(it.avgDurationNs()), roundedNs(it.stdDevNs()), it.keyNode(), it.keyNodeFound(),
                        it.keyNodeSource(), it.method(), it.candidates().stream()
                        .map(c -> new JsonReport.IterationCandidate(c.keyNode(), c.kind(), c.instances(), c.medianPeriodNs(),
                                finite(c.periodVariationPct()), finite(c.coveragePct()))).toList(), it.binding(), it.window(),
                        it.leftOut(), it.windowNote()));
    }

    private static JsonReport.Finding finding(dlproflint.findings.Finding x) {
        JsonReport.Subject subject = x.subject() == null ? null
                : new JsonReport.Subject(x.subject().kind(), x.subject().key(), x.subject().name(), x.subject().ref());
        StackFrame sf = x.location();
        JsonReport.Location loc = sf == null ? null
                : new JsonReport.Location(sf.file(), sf.line() > 0 ? sf.line() : null, sf.function());
        return new JsonReport.Finding(x.ruleId(), new JsonReport.PackRef(x.packId(), x.packVersion()),
                label(x.severity()), x.category(), impact(x.impact()), x.problem(), x.messageId(),
                EvidenceValues.normalize(x.data()), x.recommendation(),
                EvidenceValues.normalize(x.evidence()), subject, loc, x.helpUri(), dlproflint.findings.Fingerprint.of(x));
    }

    /** A finding's impact as the JSON report (and SARIF's result properties) write it; null without one. */
    public static JsonReport.Impact impact(Impact i) {
        if (i == null) return null;
        return new JsonReport.Impact(i.basis().name().toLowerCase(java.util.Locale.ROOT), Math.round(i.lostNs()),
                Math.round(i.periodNs()), i.sharePct(), Math.round(i.savingNs()), i.savingPct(), i.rank(), i.model(),
                Units.impact(i));
    }

    private static String label(Severity s) {
        return s == null ? null : s.label();
    }

    /** Nanoseconds need no fraction; an undefined mean is null. */
    private static Long roundedNs(double v) {
        return Double.isFinite(v) ? Math.round(v) : null;
    }

    /** JSON has no NaN or infinity: an undefined ratio is written as null. */
    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
