package dlproflint.reporters.dlprof;

import dlproflint.findings.Finding;
import dlproflint.reporters.FindingOrder;

import java.io.IOException;
import java.util.List;

/**
 * DLProf's Expert Systems Report ({@code dlprof_expert_systems.csv}, section "Expert Systems
 * Feedback"): one row per problem found, with its recommendation. dlprof-lint's rules play the part
 * of DLProf's expert systems, so the rows are the lint findings, in the reporters' stable finding
 * order ({@link FindingOrder}), as {@code dlprof-lint lint --report expert-systems-csv} writes them.
 */
final class ExpertSystemsReport implements DlprofReport {
    static final String TITLE = "Expert Systems Feedback";

    private final List<Finding> findings;

    ExpertSystemsReport(List<Finding> findings) {
        this.findings = FindingOrder.sorted(findings);
    }

    static List<Column> columns() {
        return List.of(Column.quoted("Problem"), Column.quoted("Recommendation"));
    }

    @Override
    public void render(ReportWriter out) throws IOException {
        out.beginTable(TITLE, columns());
        for (Finding f : findings) out.row(f.problem(), f.recommendation());
        out.endTable();
    }
}
