package dlproflint.reporters.html;

import dlproflint.compare.DeltaText;
import dlproflint.facts.Comparison;
import dlproflint.facts.KernelDelta;
import dlproflint.facts.MetricDelta;
import dlproflint.facts.OpDelta;
import dlproflint.findings.Units;
import dlproflint.reporters.html.table.Blocks;
import dlproflint.reporters.html.table.Column;
import dlproflint.reporters.html.table.DataBlock;
import dlproflint.reporters.html.table.DataTable;

import java.util.List;
import java.util.Locale;

/**
 * {@code compare}'s view of a head profile against its base, for the HTML report: the key metrics side by side, and
 * every op and kernel with GPU time in either run, as the report's tables (search, sort, pages; the first page
 * rendered on the server), largest growth per step first.
 */
public record ComparisonView(String viewId, String basePath, String baseFormat, String basis, String overlap,
                             boolean related, DataTable metrics, DataTable ops, DataTable kernels, List<DataBlock> blocks) {
    /** Rows embedded per table; the JSON report has them all. */
    static final int MAX_ROWS = 2000;

    static ComparisonView of(String pid, Comparison c) {
        if (c == null) return null;
        Blocks blocks = new Blocks();
        DataBlock.Builder mb = new DataBlock.Builder(pid + "-d-cmp-metrics", "metric", "base", "head", "change", "verdict");
        for (MetricDelta d : c.metrics()) {
            String spreads = DeltaText.spreads(d);
            mb.row(d.metric(), DeltaText.side(d, d.base(), d.baseCenter()), DeltaText.side(d, d.head(), d.headCenter()),
                    !d.present() ? "\u2014" : DeltaText.relative(d) + (spreads == null ? "" : " (" + spreads + " spread, "
                            + DeltaText.noise(d) + ")"),
                    DeltaText.verdict(d));
        }
        DataBlock metrics = blocks.add(mb.build());
        DataBlock.Builder ob = new DataBlock.Builder(pid + "-d-cmp-ops", "name", "base", "head", "growth", "ratio", "status");
        for (OpDelta o : c.ops().subList(0, Math.min(MAX_ROWS, c.ops().size()))) {
            ob.row(Text.clean(o.key()), o.baseNs(), o.headNs(), o.growthNs(), ratio(o.ratio()),
                    o.baseNs() <= 0 ? "new" : o.headNs() <= 0 ? "gone" : "");
        }
        DataBlock ops = blocks.add(ob.build());
        DataBlock.Builder kb = new DataBlock.Builder(pid + "-d-cmp-kernels", "name", "base", "head", "growth", "ratio", "status");
        for (KernelDelta k : c.kernels().subList(0, Math.min(MAX_ROWS, c.kernels().size()))) {
            String tc = k.baseTc() == k.headTc() ? "" : k.headTc() ? "now on tensor cores" : "no longer on tensor cores";
            String state = k.appeared() ? "appeared" : k.vanished() ? "vanished" : "";
            kb.row(Text.clean(k.key()), k.baseNs(), k.headNs(), k.growthNs(), ratio(k.ratio()),
                    (state + (state.isEmpty() || tc.isEmpty() ? "" : ", ") + tc));
        }
        DataBlock kernels = blocks.add(kb.build());
        String per = "step".equals(c.basis()) ? " per step" : " per run";
        DataTable metricTable = DataTable.builder(pid + "-t-cmp-metrics", "Key metrics, base and head", metrics, blocks)
                .columns(List.of(Column.text("metric", "Metric"), Column.text("base", "Base"), Column.text("head", "Head"),
                        Column.text("change", "Change"), Column.text("verdict", "Verdict")))
                .build();
        DataTable opTable = DataTable.builder(pid + "-t-cmp-ops", "Ops by GPU time" + per + ", largest growth first", ops, blocks)
                .columns(deltaColumns(per))
                .capped(c.ops().size(), "The JSON report lists every op (comparison.ops).")
                .sortedBy("growth", true).empty("No op ran GPU work in either profile.").build();
        DataTable kernelTable = DataTable.builder(pid + "-t-cmp-kernels", "Kernels by GPU time" + per + ", largest growth first",
                        kernels, blocks)
                .columns(deltaColumns(per))
                .capped(c.kernels().size(), "The JSON report lists every kernel (comparison.kernels).")
                .sortedBy("growth", true).empty("No kernel in either profile.").build();
        return new ComparisonView(pid + "-v-cmp", Text.clean(c.basePath()), Text.orDash(c.baseFormat()),
                ("step".equals(c.basis()) ? c.baseSteps() + " vs " + c.headSteps() + " steps; values per step"
                        : "values per run (a profile was not split into steps)")
                        + (c.severalRuns() ? "; " + c.basePaths().size() + " base and " + c.headPaths().size()
                        + " head captures: step times judged between runs, ops and kernels on each side's median run" : ""),
                c.sharedCount() + " of " + c.baseCount() + " base and " + c.headCount() + " head " + c.matchedBy()
                        + " in common, " + Units.pct(c.overlapPct()) + " of the GPU time",
                c.related(), metricTable, opTable, kernelTable, blocks.all());
    }

    private static List<Column> deltaColumns(String per) {
        return List.of(Column.text("name", "Name"), Column.duration("base", "Base" + per),
                Column.duration("head", "Head" + per), Column.duration("growth", "Growth" + per),
                Column.text("ratio", "Head / base"), Column.text("status", "Status"));
    }

    private static String ratio(double r) {
        return Double.isInfinite(r) ? "new" : String.format(Locale.ROOT, "%.2f\u00d7", r);
    }
}
