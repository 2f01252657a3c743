package dlproflint.reporters.dlprof;

import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * DLProf's Op Type Summary Report ({@code dlprof_op_type.csv}): per op type the number of ops and
 * calls and the four time statistics rolled up over the ops (totals summed, average per call, min
 * and max over the ops). Sorted by op type.
 */
final class OpTypeReport implements DlprofReport {
    static final String TITLE = "Op Type Summary Report";

    private final ProfileFacts facts;

    OpTypeReport(ProfileFacts facts) {
        this.facts = facts;
    }

    static List<Column> columns() {
        List<Column> cols = new ArrayList<>();
        cols.add(Column.quoted("Op Type"));
        cols.add(Column.integer("# Ops"));
        cols.add(Column.integer("# Calls"));
        cols.addAll(OpMetric.columns());
        return cols;
    }

    @Override
    public void render(ReportWriter out) throws IOException {
        Map<String, OpStats> byType = new TreeMap<>();
        for (OpFact op : facts.ops()) {
            byType.computeIfAbsent(op.type() == null ? "" : op.type(), t -> new OpStats()).add(op);
        }
        out.beginTable(TITLE, columns());
        for (Map.Entry<String, OpStats> e : byType.entrySet()) {
            OpStats s = e.getValue();
            List<Object> row = new ArrayList<>();
            row.add(e.getKey());
            row.add(s.ops());
            row.add(s.calls());
            s.appendInstanceStats(row, s.calls());
            out.row(row.toArray());
        }
        out.endTable();
    }
}
