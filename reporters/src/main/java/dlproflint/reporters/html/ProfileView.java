package dlproflint.reporters.html;

import dlproflint.findings.Units;
import dlproflint.findings.Finding;
import dlproflint.findings.ProfileResult;
import dlproflint.findings.RuleMetadata;
import dlproflint.findings.Severity;
import dlproflint.facts.ExtractionWarning;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.GpuUsage;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.KernelFact;
import dlproflint.facts.MemcpyStat;
import dlproflint.facts.MemsetStat;
import dlproflint.facts.ModelConfig;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.ProfileInfo;
import dlproflint.facts.SystemInfo;
import dlproflint.facts.TimeBreakdown;
import dlproflint.findings.FindingOrder;
import dlproflint.reporters.html.viewer.Viewer;
import dlproflint.reporters.html.svg.Palette;
import dlproflint.reporters.html.svg.Part;

import dlproflint.detail.ProfileDetail;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The static DLProf dashboard of one profile plus its findings, ready for the template. */
public record ProfileView(String id, String name, String path, String format, String producer,
                          List<Metric> cards, List<Metric> performance, SharePanel breakdown, GpuPanel gpus,
                          SharePanel opSummary, SharePanel kernelSummary, SharePanel tensorCores,
                          IterationPanel iterations, IterationPanel iterationChart, OpTable topOps, Viewer viewer,
                          List<Metric> system, List<String> warnings, List<FindingView> findings,
                          int findingsTotal, int errors, int warningCount, int notes, int suppressed,
                          boolean gpuWork, ComparisonView comparison, TimelineView timeline, MemoryView memory) {
    static final int TOP_OPS = 10;
    static final int MAX_FINDINGS = 200;
    static final int MAX_WARNINGS = 50;

    static ProfileView of(ProfileResult r, Map<String, RuleMetadata> rules, int index) {
        ProfileFacts f = r.facts();
        ProfileInfo p = f.profile();
        String id = "p" + index;
        String fileName = p.path() == null ? "profile" : fileName(p.path());
        List<Finding> all = r.findings() == null ? List.of() : r.findings();
        // the order of every report (severity, then impact), capped; their position is their index in the viewer's data
        List<Finding> sorted = FindingOrder.sorted(all).stream().limit(MAX_FINDINGS).toList();
        List<String> anchors = new ArrayList<>();
        List<String> icons = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            anchors.add(id + "-f" + (i + 1));
            icons.add(FindingView.icon(sorted.get(i).severity()));
        }
        Viewer viewer = Viewer.of(id, f, sorted, anchors, icons);
        ProfileDetail detail = r.detail();
        TimelineView timeline = detail == null ? null : TimelineView.of(id, detail.timeline(),
                detail.timeline() == null ? "This format has no per-launch data to draw." : null);
        MemoryView memory = detail == null ? null
                : MemoryView.of(detail.memory(), detail.memoryNote(), detail.modules(), detail.modulesNote());
        List<FindingView> findings = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            Finding fi = sorted.get(i);
            FindingView fv = FindingView.of(fi, rules.get(fi.ruleId()), anchors.get(i), viewer.findingLinks().get(i));
            if (timeline != null && timeline.svg() != null && FindingView.aboutTheTimeline(fi.ruleId())) {
                fv = timeline.syncId() != null
                        ? fv.withTimeline("#" + timeline.syncId(), "show on timeline: " + timeline.syncText())
                        : fv.withTimeline("#" + id + "-v-timeline", "show on timeline");
            }
            findings.add(fv);
        }
        int errors = count(all, Severity.ERROR), warns = count(all, Severity.WARNING), notes = count(all, Severity.NOTE);
        int suppressed = r.suppressed() == null ? 0 : r.suppressed().size();
        GpuPanel gpus = GpuPanel.of(f);
        SharePanel tc = tensorCores(f.ops());
        List<String> warnings = f.warnings().stream().limit(MAX_WARNINGS)
                .map(ProfileView::warning).collect(Collectors.toCollection(ArrayList::new));
        if (f.warnings().size() > MAX_WARNINGS) {
            warnings.add("\u2026 and " + (f.warnings().size() - MAX_WARNINGS) + " more");
        }
        return new ProfileView(id, Text.clean(fileName), Text.clean(p.path()), Text.orDash(p.format()),
                Text.orDash(p.profilerVersion()),
                cards(f, gpus, tc, errors, warns, notes, suppressed), performance(f, gpus, tc),
                breakdown(f.breakdown()), gpus, opSummary(f.ops()), kernelSummary(f), tc,
                IterationPanel.of(f.iterations(), f.iterationSummary(), IterationPanel.DASHBOARD_COLUMNS),
                IterationPanel.of(f.iterations(), f.iterationSummary(), IterationPanel.VIEW_COLUMNS),
                OpTable.of(f.ops(), TOP_OPS, id), viewer,
                system(f), warnings, findings, all.size(), errors, warns, notes, suppressed, f.hasGpuWork(),
                ComparisonView.of(id, f.comparison()), timeline, memory);
    }

    private static String fileName(String path) {
        try {
            Path fn = Path.of(path).getFileName();
            Path parent = Path.of(path).getParent();
            String name = fn == null ? path : fn.toString();
            // nsys names every export the same; the folder tells profiles apart
            return parent != null && parent.getFileName() != null ? parent.getFileName() + "/" + name : name;
        } catch (RuntimeException e) {
            return path;
        }
    }

    private static String warning(ExtractionWarning w) {
        return Text.clean((w.code() == null ? "" : "[" + w.code() + "] ") + w.message());
    }

    private static int count(List<Finding> fs, Severity s) {
        return (int) fs.stream().filter(x -> x.severity() == s).count();
    }

    private static long wallNs(ProfileFacts f) {
        return f.breakdown().wallNs() > 0 ? f.breakdown().wallNs() : f.profile().wallNs();
    }

    private static String gpuUtilization(ProfileFacts f, GpuPanel gpus) {
        if (f.breakdown().wallNs() > 0) return Units.share(f.breakdown().gpuUtilizationPct());
        return gpus.average();
    }

    private static List<Metric> cards(ProfileFacts f, GpuPanel gpus, SharePanel tc, int errors, int warns,
                                      int notes, int suppressed) {
        List<Metric> c = new ArrayList<>();
        c.add(new Metric("Wall clock time", Units.duration(wallNs(f)), "aggregated range"));
        c.add(new Metric("GPU utilization", gpuUtilization(f, gpus), "kernel busy time / wall time"));
        c.add(new Metric("Tensor-core efficiency", tc.headline() == null ? "\u2014" : tc.headline(),
                "TC kernel time / GPU time of TC-eligible ops"));
        IterationSummary s = f.iterationSummary();
        c.add(new Metric("Avg iteration", s.avgDurationNs() > 0 ? Units.duration(s.avgDurationNs()) : "\u2014",
                s.total() > 0 ? s.aggregated() + " of " + s.total() + " iterations profiled, " + Text.clean(s.howFound()) : "no iterations"));
        String fs = errors + " error" + (errors == 1 ? "" : "s") + " \u00B7 " + warns + " warning"
                + (warns == 1 ? "" : "s") + " \u00B7 " + notes + " note" + (notes == 1 ? "" : "s");
        c.add(new Metric("Findings", Integer.toString(errors + warns + notes),
                fs + (suppressed > 0 ? " \u00B7 " + suppressed + " suppressed" : "")));
        return c;
    }

    private static List<Metric> performance(ProfileFacts f, GpuPanel gpus, SharePanel tc) {
        IterationSummary s = f.iterationSummary();
        TimeBreakdown b = f.breakdown();
        List<Metric> m = new ArrayList<>();
        m.add(new Metric("Wall clock time", Units.duration(wallNs(f)),
                "The aggregated steps' durations added up, each measured on the side that bound the loop."));
        m.add(new Metric("Tensor-core kernel efficiency", tc.headline() == null ? "\u2014" : tc.headline(),
                "GPU time of tensor-core kernels / GPU time of tensor-core eligible ops. Higher is better."));
        m.add(new Metric("Tensor-core kernel share", Units.share(b.tcUtilizationPct()),
                "GPU time of tensor-core kernels / GPU time of tensor-core eligible work (eligible ops and every tensor-core kernel)."));
        m.add(new Metric("GPU utilization", gpuUtilization(f, gpus),
                "Time the GPUs were running kernels / wall clock time, averaged over GPUs."));
        m.add(new Metric("Total iterations", s.total() > 0 ? Integer.toString(s.total()) : "\u2014", null));
        m.add(new Metric("Profiled iterations", s.total() > 0 ? Integer.toString(s.aggregated()) : "\u2014",
                "Iterations inside the aggregation range."));
        m.add(new Metric("Start / stop iteration", s.total() > 0 ? s.aggStart() + " / " + s.aggStop() : "\u2014", null));
        m.add(new Metric("Average iteration time", s.avgDurationNs() > 0 ? Units.duration(s.avgDurationNs()) : "\u2014",
                s.avgDurationNs() > 0 ? "standard deviation " + Units.duration(s.stdDevNs()) + " ("
                        + dlproflint.facts.Percent.variationText(s.variationPct()) + ")" : null));
        m.add(new Metric("Key node", s.keyNode() == null ? "\u2014" : Text.cell(s.keyNode())
                + (s.keyNodeFound() ? "" : " (not found)"), "source: " + Text.clean(s.keyNodeSource())));
        m.add(new Metric("Iterations found by", Text.cell(s.howFound()), s.inferred()
                ? "Inferred from repetition, not marked: check the boundaries, or mark steps and pass --key-node."
                : "method: " + Text.clean(s.method())));
        if (s.total() > 1 && s.binding() != null) {
            m.add(new Metric("Steps measured on", Text.cell(s.bindingText()),
                    "The side that bound the loop: GPU spans of the work each step launched when the GPU ran behind the host."));
        }
        if (s.leftOutSteps()) {
            m.add(new Metric("Steady window", s.aggStart() + " / " + s.aggStop(), Text.clean(s.windowNote())));
        }
        return m;
    }

    private static SharePanel breakdown(TimeBreakdown b) {
        double wall = b.wallNs();
        List<Part> parts = List.of(
                new Part("Tensor-core kernels", b.tcKernelPct(), Palette.TC_KERNEL, null),
                new Part("Other kernels", b.nonTcKernelPct(), Palette.NON_TC_KERNEL, null),
                new Part("Memory", b.memoryPct(), Palette.MEMORY, null),
                new Part("Dataloader", b.dataloaderPct(), Palette.DATALOADER, null),
                new Part("I/O", b.ioPct(), Palette.IO, null),
                new Part("CPU", b.cpuPct(), Palette.CPU, null),
                new Part("Other", b.otherPct(), Palette.OTHER, null));
        return SharePanel.of("Time breakdown of the aggregated range", null, parts,
                pct -> wall > 0 ? Units.duration(wall * pct / 100) : Units.share(pct), List.of());
    }

    private static SharePanel opSummary(List<OpFact> ops) {
        long tcNs = 0, tcN = 0, tcCalls = 0, elNs = 0, elN = 0, elCalls = 0, otNs = 0, otN = 0, otCalls = 0;
        for (OpFact o : ops) {
            long g = o.gpuTime().total();
            if (o.usesTc()) { tcNs += g; tcN++; tcCalls += o.calls(); }
            else if (o.tcEligible()) { elNs += g; elN++; elCalls += o.calls(); }
            else { otNs += g; otN++; otCalls += o.calls(); }
        }
        List<Part> parts = List.of(
                new Part("Ops using tensor cores", tcNs, Palette.TC_KERNEL, null),
                new Part("Ops eligible for tensor cores, not using them", elNs, Palette.ELIGIBLE_NOT_TC, null),
                new Part("All other ops", otNs, Palette.NON_TC_KERNEL, null));
        List<SharePanel.Row> rows = List.of(
                row("All ops", tcNs + elNs + otNs, tcN + elN + otN, tcCalls + elCalls + otCalls, null),
                row("Ops using TC", tcNs, tcN, tcCalls, Palette.TC_KERNEL),
                row("Ops eligible for TC, not using", elNs, elN, elCalls, Palette.ELIGIBLE_NOT_TC),
                row("All other ops", otNs, otN, otCalls, Palette.NON_TC_KERNEL));
        return SharePanel.of("GPU time by op tensor-core use", null, parts, Units::duration, rows);
    }

    private static SharePanel kernelSummary(ProfileFacts f) {
        long tcNs = 0, tcN = 0, tcCalls = 0, otNs = 0, otN = 0, otCalls = 0, memNs = 0, memN = 0;
        for (KernelFact k : f.kernels()) {
            if (k.usesTc()) { tcNs += k.gpuTime().total(); tcN++; tcCalls += k.calls(); }
            else { otNs += k.gpuTime().total(); otN++; otCalls += k.calls(); }
        }
        for (MemcpyStat m : f.memcpyStats()) { memNs += m.gpuTime().total(); memN += m.count(); }
        for (MemsetStat m : f.memsetStats()) { memNs += m.gpuTime().total(); memN += m.count(); }
        List<Part> parts = List.of(
                new Part("Kernels using tensor cores", tcNs, Palette.TC_KERNEL, null),
                new Part("Memory operations", memNs, Palette.MEMORY, null),
                new Part("All other kernels", otNs, Palette.NON_TC_KERNEL, null));
        List<SharePanel.Row> rows = List.of(
                new SharePanel.Row("All kernels and memory ops", Units.duration(tcNs + otNs + memNs),
                        Units.count(tcN + otN), Units.count(tcCalls + otCalls + memN), null),
                row("Kernels using TC", tcNs, tcN, tcCalls, Palette.TC_KERNEL),
                new SharePanel.Row("Memory operations", Units.duration(memNs), "\u2014", Units.count(memN),
                        dlproflint.reporters.html.svg.SvgStackedBar.swatch(Palette.MEMORY)),
                row("All other kernels", otNs, otN, otCalls, Palette.NON_TC_KERNEL));
        return SharePanel.of("GPU time by kernel kind", null, parts, Units::duration, rows);
    }

    private static SharePanel.Row row(String label, long ns, long n, long calls, String color) {
        return new SharePanel.Row(label, Units.duration(ns), Units.count(n), Units.count(calls),
                color == null ? null : dlproflint.reporters.html.svg.SvgStackedBar.swatch(color));
    }

    /** DLProf's Tensor Core Kernel Efficiency: TC kernel time over the GPU time of eligible ops. */
    private static SharePanel tensorCores(List<OpFact> ops) {
        long eligibleNs = 0, tcNs = 0;
        for (OpFact o : ops) {
            if (!o.tcEligible()) continue;
            eligibleNs += o.gpuTime().total();
            tcNs += Math.min(o.tcGpuTimeNs(), o.gpuTime().total());
        }
        String headline = eligibleNs > 0 ? Units.share(dlproflint.facts.Percent.of(tcNs, eligibleNs)) : null; // tcNs sums parts of eligibleNs
        List<Part> parts = List.of(
                new Part("Tensor-core kernels in eligible ops", tcNs, Palette.TC_KERNEL, null),
                new Part("Other kernels in eligible ops", eligibleNs - tcNs, Palette.ELIGIBLE_NOT_TC, null));
        return SharePanel.of("Tensor-core kernel efficiency", headline, parts, Units::duration, List.of());
    }

    private static List<Metric> system(ProfileFacts f) {
        SystemInfo s = f.system();
        List<Metric> m = new ArrayList<>();
        long used = f.gpuUsage().stream().filter(GpuUsage::used).count();
        m.add(Metric.of("GPU count", f.gpus().size() + (f.gpus().isEmpty() ? "" : " (" + used + " used)")));
        Map<String, Integer> names = new LinkedHashMap<>();
        for (GpuInfo g : f.gpus()) names.merge(Text.clean(g.name() == null ? "unknown" : g.name()), 1, Integer::sum);
        m.add(Metric.of("GPU name(s)", names.isEmpty() ? "\u2014" : names.entrySet().stream()
                .map(e -> e.getValue() > 1 ? e.getValue() + " \u00D7 " + e.getKey() : e.getKey())
                .collect(Collectors.joining(", "))));
        m.add(Metric.of("CPU model", Text.orDash(s.cpuModel())));
        m.add(Metric.of("Host", Text.orDash(s.hostname())));
        m.add(Metric.of("GPU driver version", Text.orDash(s.driverVersion())));
        m.add(Metric.of("CUDA version", Text.orDash(s.cudaVersion())));
        m.add(Metric.of("cuDNN version", Text.orDash(s.cudnnVersion())));
        String fw = s.framework() == null ? null
                : s.framework() + (s.frameworkVersion() == null ? "" : " " + s.frameworkVersion());
        m.add(Metric.of("Framework", Text.orDash(fw)));
        if (s.worldSize() > 0) m.add(Metric.of("Distributed", "rank " + s.distributedRank() + " of " + s.worldSize()));
        m.add(Metric.of("Profile format", Text.orDash(f.profile().format())));
        m.add(Metric.of("Profiler version", Text.orDash(f.profile().profilerVersion())));
        if (f.profile().schemaVersion() != null) m.add(Metric.of("Export schema", Text.clean(f.profile().schemaVersion())));
        ModelConfig c = f.modelConfig();
        if (c != null) {
            addIf(m, "DataLoader workers", c.numWorkers());
            addIf(m, "Pinned memory", c.pinMemory());
            addIf(m, "cuDNN benchmark", c.cudnnBenchmark());
            addIf(m, "AMP enabled", c.ampEnabled());
            addIf(m, "Anomaly detection", c.detectAnomaly());
            addIf(m, "emit_nvtx", c.emitNvtx());
        }
        return m;
    }

    private static void addIf(List<Metric> m, String label, Object v) {
        if (v == null) return;
        m.add(Metric.of(label, v instanceof Boolean b ? (b ? "yes" : "no") : String.valueOf(v)));
    }
}
