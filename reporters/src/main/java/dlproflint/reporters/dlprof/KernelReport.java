package dlproflint.reporters.dlprof;

import dlproflint.facts.ProfileFacts;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * DLProf's Kernel Report ({@code dlprof_kernel.csv}): one row per kernel name per op, with its GPU
 * time and launch-API time statistics. Memory copies and sets are not kernels here, as in DLProf.
 */
final class KernelReport implements DlprofReport {
    static final String TITLE = "Kernel Report";

    private final ProfileFacts facts;
    private final Layout layout;

    KernelReport(ProfileFacts facts) {
        this.facts = facts;
        this.layout = Layout.of(facts);
    }

    static List<Column> columns(Layout layout) {
        List<Column> cols = new ArrayList<>();
        cols.add(Column.quoted("Kernel Name"));
        cols.add(Column.quoted("Op ID"));
        cols.add(Column.quoted("Op Name"));
        if (layout.hasDirection()) cols.add(Column.bare("Direction"));
        cols.add(Column.yesNo("Uses TC"));
        for (String what : List.of("GPU", "API")) {
            cols.add(Column.integer("Total " + what + " Time (ns)"));
            cols.add(Column.decimal("Avg " + what + " Time (ns)"));
            cols.add(Column.integer("Min " + what + " Time (ns)"));
            cols.add(Column.integer("Max " + what + " Time (ns)"));
        }
        return cols;
    }

    @Override
    public void render(ReportWriter out) throws IOException {
        out.beginTable(TITLE, columns(layout));
        for (OpKernels.Entry e : new OpKernels(facts).entries()) {
            List<Object> row = new ArrayList<>();
            row.add(e.name());
            row.add(e.opId());
            row.add(e.op() != null ? e.op().name() : e.opId());
            if (layout.hasDirection()) row.add(e.op() != null ? Labels.direction(e.op().direction()) : null);
            row.add(e.usesTc());
            for (dlproflint.facts.Stat s : List.of(e.gpuTime(), e.apiTime())) {
                row.add(s.total());
                row.add(s.avg());
                row.add(s.min());
                row.add(s.max());
            }
            out.row(row.toArray());
        }
        out.endTable();
    }
}
