package dlproflint.reporters.html;

import dlproflint.findings.Units;
import dlproflint.facts.Direction;
import dlproflint.facts.OpFact;
import dlproflint.reporters.html.svg.Palette;
import dlproflint.reporters.html.svg.SvgStackedBar;
import dlproflint.reporters.html.viewer.Viewer;

import java.util.List;

/**
 * The Top 10 GPU Ops panel: ops by GPU time, in the order of the Ops and Kernels view's table (same ties), so
 * row {@code i} here is row {@code i} there ({@code opsTable}, in view {@code opsView}).
 */
public record OpTable(List<Row> rows, int total, boolean showDirection, String opsView, String opsTable) {

    public record Row(String name, String nameFull, String type, String direction, String calls, String gpuTime,
                      String share, String meter, boolean tcEligible, boolean usesTc) {
    }

    static OpTable of(List<OpFact> ops, int limit, String pid) {
        long totalGpu = ops.stream().mapToLong(o -> o.gpuTime().total()).sum();
        boolean dir = ops.stream().anyMatch(o -> o.direction() != null && o.direction() != Direction.NA);
        List<Row> rows = ops.stream()
                .sorted(Viewer.OPS_BY_GPU_TIME)
                .limit(limit)
                .map(o -> row(o, totalGpu))
                .toList();
        return new OpTable(rows, ops.size(), dir, pid + "-v-ops", pid + "-t-ops");
    }

    private static Row row(OpFact o, long totalGpu) {
        double frac = totalGpu <= 0 ? 0 : (double) o.gpuTime().total() / totalGpu;
        return new Row(Text.cell(o.name()), Text.clean(o.name()), Text.orDash(o.type()),
                o.direction() == null ? "\u2014" : o.direction().label(), Units.count(o.calls()),
                Units.duration(o.gpuTime().total()), Units.share(100 * frac),
                SvgStackedBar.meter(frac, o.usesTc() ? Palette.TC_KERNEL : Palette.NON_TC_KERNEL), o.tcEligible(),
                o.usesTc());
    }
}
