package dlproflint.reporters.dlprof;

import dlproflint.facts.OpFact;
import dlproflint.facts.ProfileFacts;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * DLProf's Group Node Report ({@code dlprof_group_op.csv}, section "Group Op Report"): one row per
 * module sub-tree. The sub-trees come from the op names: every prefix of an op name that ends with
 * {@code /} ({@code /}, {@code /module/}, {@code /module/Net::forward/}, ...) is a group holding the
 * ops below it; {@code _CompleteModel_} (last row) holds every op, unassociated ones included. Per
 * group: leaf-op calls, TC-eligible and TC-using op counts, and the four time statistics.
 *
 * <p>DLProf computes Avg./Min/Max "on a per-iteration basis". The fact model holds each op's totals
 * over the aggregated iterations, not per iteration, so the average is the total divided by the
 * number of aggregated iterations and Min/Max equal that average. With one aggregated iteration (the
 * corpus) this is exactly DLProf's value; with several, Min/Max are approximations.
 */
final class GroupOpReport implements DlprofReport {
    static final String TITLE = "Group Op Report";
    static final String COMPLETE_MODEL = "_CompleteModel_";

    private final ProfileFacts facts;

    GroupOpReport(ProfileFacts facts) {
        this.facts = facts;
    }

    static List<Column> columns() {
        List<Column> cols = new ArrayList<>();
        cols.add(Column.quoted("Name"));
        cols.add(Column.integer("Num Calls Aggregated"));
        cols.add(Column.integer("Num TC Eligible Ops"));
        cols.add(Column.integer("Num Ops Using TC"));
        cols.addAll(OpMetric.columns());
        return cols;
    }

    @Override
    public void render(ReportWriter out) throws IOException {
        Map<String, OpStats> groups = new TreeMap<>();
        OpStats complete = new OpStats();
        for (OpFact op : facts.ops()) {
            complete.add(op);
            String name = op.name();
            if (name == null) continue;
            for (int i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
                groups.computeIfAbsent(name.substring(0, i + 1), g -> new OpStats()).add(op);
            }
        }
        out.beginTable(TITLE, columns());
        long iterations = Math.max(1, facts.iterationSummary().aggregated());
        for (Map.Entry<String, OpStats> e : groups.entrySet()) {
            out.row(row(e.getKey(), e.getValue(), iterations).toArray());
        }
        out.row(row(COMPLETE_MODEL, complete, iterations).toArray());
        out.endTable();
    }

    private static List<Object> row(String name, OpStats s, long iterations) {
        List<Object> row = new ArrayList<>();
        row.add(name);
        row.add(s.calls());
        row.add(s.tcEligible());
        row.add(s.usingTc());
        for (OpMetric m : OpMetric.values()) {
            long total = s.total(m);
            double perIteration = Decimals.ratio(total, iterations);
            row.add(total);
            row.add(perIteration);
            // per-iteration min/max need per-iteration op totals, which the facts do not hold
            long rounded = Math.round(perIteration);
            row.add(rounded);
            row.add(rounded);
        }
        return row;
    }
}
