package dlproflint.reporters.html;

import dlproflint.facts.Direction;
import dlproflint.facts.OpFact;
import dlproflint.facts.StackFrame;
import dlproflint.reporters.html.svg.Palette;
import dlproflint.reporters.html.svg.SvgStackedBar;

import java.util.Comparator;
import java.util.List;

/**
 * The Top 10 GPU Ops panel: ops by GPU time, in the order of the Ops and Kernels view's table (same ties), so
 * row {@code i} here is row {@code i} there ({@code opsTable}, in view {@code opsView}).
 */
public record OpTable(List<Row> rows, int total, boolean showDirection, String opsView, String opsTable) {

    public record Row(String name, String nameFull, String id, String type, String direction, String calls,
                      long gpuNs, String gpuTime, String share, String meter, long cpuNs, String cpuTime,
                      long overheadNs, String cpuOverhead, long idleNs, String gpuIdle, boolean tcEligible,
                      boolean usesTc, long tcNs, String tcTime, String kernelCalls, String dataType,
                      String location, String locationFull) {
    }

    static OpTable of(List<OpFact> ops, int limit, String pid) {
        long totalGpu = ops.stream().mapToLong(o -> o.gpuTime().total()).sum();
        boolean dir = ops.stream().anyMatch(o -> o.direction() != null && o.direction() != Direction.NA);
        List<Row> rows = ops.stream()
                .sorted(Comparator.comparingLong((OpFact o) -> o.gpuTime().total()).reversed()
                        .thenComparing(o -> String.valueOf(o.name())).thenComparing(o -> String.valueOf(o.id())))
                .limit(limit)
                .map(o -> row(o, totalGpu))
                .toList();
        return new OpTable(rows, ops.size(), dir, pid + "-v-ops", pid + "-t-ops");
    }

    private static Row row(OpFact o, long totalGpu) {
        double frac = totalGpu <= 0 ? 0 : (double) o.gpuTime().total() / totalGpu;
        StackFrame loc = o.location();
        String locFull = loc == null ? null : Text.clean(loc.toString());
        return new Row(Text.cell(o.name()), Text.clean(o.name()), Text.cell(o.id()), Text.orDash(o.type()),
                o.direction() == null ? "\u2014" : o.direction().label(), Fmt.count(o.calls()),
                o.gpuTime().total(), Fmt.duration(o.gpuTime().total()), Fmt.pct(100 * frac),
                SvgStackedBar.meter(frac, o.usesTc() ? Palette.TC_KERNEL : Palette.NON_TC_KERNEL),
                o.cpuTime().total(), Fmt.duration(o.cpuTime().total()),
                o.cpuOverhead().total(), Fmt.duration(o.cpuOverhead().total()),
                o.gpuIdle().total(), Fmt.duration(o.gpuIdle().total()),
                o.tcEligible(), o.usesTc(), o.tcGpuTimeNs(), Fmt.duration(o.tcGpuTimeNs()),
                Fmt.count(o.kernelCalls()), Text.orDash(o.dataType()),
                locFull == null ? null : Text.truncate(locFull, 60), locFull);
    }
}
