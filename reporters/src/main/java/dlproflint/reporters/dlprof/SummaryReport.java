package dlproflint.reporters.dlprof;

import dlproflint.facts.ApiStat;
import dlproflint.facts.GpuInfo;
import dlproflint.facts.IterationSummary;
import dlproflint.facts.KernelFact;
import dlproflint.facts.MemcpyStat;
import dlproflint.facts.MemsetStat;
import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;
import dlproflint.facts.SystemInfo;
import dlproflint.facts.TimeBreakdown;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.StringJoiner;

/**
 * DLProf's Summary Report ({@code dlprof_summary.csv}): System Config, Summary Report, Iterations,
 * All Ops and All Kernels sections. Rows DLProf prints about itself (DLProf Version, DLProf Build)
 * are left out: dlprof-lint is not DLProf. The cuDNN row is printed only when the version is known,
 * as DLProf does.
 */
final class SummaryReport implements DlprofReport {
    static final List<Column> ALL_OPS_COLUMNS = List.of(Column.bare(""), Column.integer("GPU Time (ns)"),
            Column.integer("CPU Time (ns)"), Column.integer("# Ops"));
    static final List<Column> ALL_KERNELS_COLUMNS = List.of(Column.bare(""), Column.integer("GPU Time (ns)"),
            Column.integer("CPU Time (ns)"), Column.integer("# Kernels"));

    private final ProfileFacts facts;

    SummaryReport(ProfileFacts facts) {
        this.facts = facts;
    }

    @Override
    public void render(ReportWriter out) throws java.io.IOException {
        out.keyValueSection("System Config", systemConfig());
        out.keyValueSection("Summary Report", summary());
        out.keyValueSection("Iterations", iterations());
        allOps(out);
        allKernels(out);
    }

    private List<KeyValue> systemConfig() {
        SystemInfo s = facts.system();
        List<KeyValue> rows = new ArrayList<>();
        rows.add(KeyValue.integer("GPU Count", facts.gpus().size()));
        StringJoiner names = new StringJoiner(", ");
        for (GpuInfo g : facts.gpus()) names.add(g.name() == null ? "" : g.name());
        rows.add(KeyValue.line("GPU Name(s)", names.toString()));
        rows.add(KeyValue.line("CPU Model", s.cpuModel()));
        rows.add(KeyValue.line("GPU Driver Version", s.driverVersion()));
        rows.add(KeyValue.line("Framework", framework(s)));
        rows.add(KeyValue.line("CUDA Version", s.cudaVersion()));
        if (s.cudnnVersion() != null && !s.cudnnVersion().isBlank()) {
            rows.add(KeyValue.line("cuDNN Version", s.cudnnVersion()));
        }
        rows.add(KeyValue.line("NSys Version", facts.profile().profilerVersion()));
        return rows;
    }

    /** {@code PyTorch 1.10.1+cu102}: DLProf's display name of the framework followed by its version. */
    static String framework(SystemInfo s) {
        String fw = s.framework();
        String version = s.frameworkVersion();
        if (fw == null || fw.isBlank()) return version;
        String display = switch (fw.toLowerCase(Locale.ROOT)) {
            case "pytorch" -> "PyTorch";
            case "tensorflow" -> "TensorFlow";
            case "tensorrt" -> "TensorRT";
            case "jax" -> "JAX";
            default -> fw;
        };
        if (version == null || version.isBlank()) return display;
        if (version.toLowerCase(Locale.ROOT).startsWith(display.toLowerCase(Locale.ROOT))) return version;
        return display + " " + version;
    }

    private List<KeyValue> summary() {
        TimeBreakdown b = facts.breakdown();
        long wall = b.wallNs() > 0 ? b.wallNs() : facts.profile().wallNs();
        return List.of(
                KeyValue.integer("Wall Clock Time (ns)", wall),
                KeyValue.decimal("Tensor Core Kernel Utilization %", b.tcUtilizationPct()),
                KeyValue.decimal("GPU Utilization %", b.gpuUtilizationPct()),
                KeyValue.decimal("Tensor Core Kernel Duration %", b.tcKernelPct()),
                KeyValue.decimal("Non-Tensor Core Kernel Duration %", b.nonTcKernelPct()),
                KeyValue.decimal("Memory Duration %", b.memoryPct()),
                KeyValue.decimal("Dataloader Duration %", b.dataloaderPct()),
                KeyValue.decimal("IO Duration %", b.ioPct()),
                KeyValue.decimal("CPU Duration %", b.cpuPct()),
                KeyValue.decimal("Other Duration %", b.otherPct()));
    }

    private List<KeyValue> iterations() {
        IterationSummary it = facts.iterationSummary();
        return List.of(
                KeyValue.integer("Total Iterations", it.total()),
                KeyValue.integer("Aggregated Iterations", it.aggregated()),
                KeyValue.integer("Start Iteration", it.aggStart()),
                KeyValue.integer("Stop Iteration", it.aggStop()),
                KeyValue.decimal("Average Iteration Time (ns)", it.avgDurationNs()),
                KeyValue.decimal("Iteration Time Standard Deviation", it.stdDevNs()));
    }

    /** All ops / ops using TC / eligible but not using / all other: GPU and CPU time totals and op counts. */
    private void allOps(ReportWriter out) throws java.io.IOException {
        long[] all = new long[3];
        long[] tc = new long[3];
        long[] eligible = new long[3];
        long[] other = new long[3];
        for (OpFact op : facts.ops()) {
            long[] bucket = op.usesTc() ? tc : op.tcEligible() ? eligible : other;
            add(all, op);
            add(bucket, op);
        }
        out.beginTable("All Ops", ALL_OPS_COLUMNS);
        out.row("All ops", all[0], all[1], all[2]);
        out.row("Ops using TC", tc[0], tc[1], tc[2]);
        out.row("Ops eligible for TC but not using", eligible[0], eligible[1], eligible[2]);
        out.row("All other ops", other[0], other[1], other[2]);
        out.endTable();
    }

    private static void add(long[] bucket, OpFact op) {
        bucket[0] += op.gpuTime().total();
        bucket[1] += op.cpuTime().total();
        bucket[2]++;
    }

    /**
     * All kernels / kernels using TC / memory / all other kernels: GPU time, CPU (launch API) time and
     * the number of distinct kernel names. Memory is memcpy + memset GPU time, the CPU time of the
     * memcpy/memset API calls, and the number of distinct memcpy/memset APIs (DLProf's 1.8 count:
     * w_Relu's 3 = cudaMemcpyAsync, cudaMemcpy, cudaMemsetAsync).
     */
    private void allKernels(ReportWriter out) throws java.io.IOException {
        long tcGpu = 0, tcCpu = 0, otherGpu = 0, otherCpu = 0;
        Set<String> tcNames = new HashSet<>();
        Set<String> otherNames = new HashSet<>();
        long memGpu = 0;
        Set<String> memNames = new HashSet<>();
        for (KernelFact k : facts.kernels()) {
            if (Labels.isMemoryOperation(k.name())) continue; // counted from the memcpy/memset facts below
            if (k.usesTc()) {
                tcGpu += k.gpuTime().total();
                tcCpu += k.apiTime().total();
                tcNames.add(k.name());
            } else {
                otherGpu += k.gpuTime().total();
                otherCpu += k.apiTime().total();
                otherNames.add(k.name());
            }
        }
        for (MemcpyStat m : facts.memcpyStats()) {
            memGpu += m.gpuTime().total();
            memNames.add("memcpy:" + m.api());
        }
        for (MemsetStat m : facts.memsetStats()) {
            memGpu += m.gpuTime().total();
            memNames.add("memset:" + m.api());
        }
        long memCpu = 0;
        for (ApiStat a : facts.apiStats()) {
            if ("memcpy".equals(a.category()) || "memset".equals(a.category())) memCpu += a.time().total();
        }
        Set<String> kernelNames = new HashSet<>(tcNames);
        kernelNames.addAll(otherNames);
        out.beginTable("All Kernels", ALL_KERNELS_COLUMNS);
        out.row("All kernels", tcGpu + otherGpu + memGpu, tcCpu + otherCpu + memCpu,
                (long) kernelNames.size() + memNames.size());
        out.row("Kernels using TC", tcGpu, tcCpu, (long) tcNames.size());
        out.row("Memory", memGpu, memCpu, (long) memNames.size());
        // a name launched both with and without tensor cores counts in both rows, once in "All kernels"
        out.row("All other kernels", otherGpu, otherCpu, (long) otherNames.size());
        out.endTable();
    }
}
