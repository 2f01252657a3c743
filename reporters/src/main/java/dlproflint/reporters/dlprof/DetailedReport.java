package dlproflint.reporters.dlprof;

import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * DLProf's Detailed Report ({@code dlprof_detailed.csv}, section "All Iterations"): one row per op
 * with calls, tensor-core eligibility and use, and Total/Avg./Min/Max of CPU time, GPU time, CPU
 * overhead and GPU idle (average per call). Rows are sorted by Op ID (by op name for TensorFlow),
 * as DLProf sorts them.
 */
final class DetailedReport implements DlprofReport {
    static final String TITLE = "All Iterations";

    private final ProfileFacts facts;
    private final Layout layout;

    DetailedReport(ProfileFacts facts) {
        this.facts = facts;
        this.layout = Layout.of(facts);
    }

    @Override
    public void render(ReportWriter out) throws IOException {
        out.beginTable(TITLE, columns(layout));
        List<OpFact> ops = new ArrayList<>(facts.ops());
        ops.sort(layout == Layout.PYTORCH
                ? Comparator.comparing(OpFact::id, Comparator.nullsFirst(Comparator.naturalOrder()))
                : Comparator.comparing(OpFact::name, Comparator.nullsFirst(Comparator.naturalOrder())));
        for (OpFact op : ops) out.row(row(op).toArray());
        out.endTable();
    }

    static List<Column> columns(Layout layout) {
        List<Column> cols = new ArrayList<>();
        if (layout == Layout.PYTORCH) {
            cols.add(Column.quoted("Op ID"));
            cols.add(Column.quoted("Op Name"));
            cols.add(Column.bare("Direction"));
            cols.add(Column.quoted("Op Type"));
        } else {
            cols.add(Column.quoted("Op Name"));
            cols.add(Column.bare("Op Type"));
        }
        cols.add(Column.integer("No. Calls"));
        cols.add(Column.yesNo("TC Eligible"));
        cols.add(Column.yesNo("Using TC"));
        cols.addAll(OpMetric.columns());
        cols.add(Column.bare("Data Type"));
        cols.add(layout == Layout.PYTORCH ? Column.quoted("Stack Trace") : Column.quoted("Input Shapes"));
        return cols;
    }

    private List<Object> row(OpFact op) {
        List<Object> row = new ArrayList<>();
        if (layout == Layout.PYTORCH) {
            row.add(op.id());
            row.add(op.name());
            row.add(Labels.direction(op.direction()));
            row.add(op.type());
        } else {
            row.add(op.name());
            row.add(op.type());
        }
        row.add(op.calls());
        row.add(op.tcEligible());
        row.add(op.usesTc());
        OpStats.appendOpStats(row, op);
        row.add(op.dataType());
        row.add(layout == Layout.PYTORCH ? Labels.stackTrace(op.stack()) : op.inputShapes());
        return row;
    }
}
