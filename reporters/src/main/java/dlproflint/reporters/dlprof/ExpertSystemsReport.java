package dlproflint.reporters.dlprof;

import dlproflint.findings.Finding;
import dlproflint.findings.LintRun;
import dlproflint.findings.FindingOrder;
import dlproflint.reporters.ProfileNames;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * DLProf's Expert Systems Report ({@code dlprof_expert_systems.csv}, section "Expert Systems
 * Feedback"): one row per problem found, with its recommendation. dlprof-lint's rules play the part
 * of DLProf's expert systems, so the rows are the lint findings (after suppressions and the baseline), in
 * the reporters' stable finding order ({@link FindingOrder}). The one writer of that file, for both
 * {@code dlprof-lint report --reports expert_systems} and {@code dlprof-lint --report expert-systems-csv}.
 */
final class ExpertSystemsReport implements DlprofReport {
    static final String TITLE = "Expert Systems Feedback";

    private final List<String[]> rows;

    private ExpertSystemsReport(List<String[]> rows) {
        this.rows = rows;
    }

    /** One profile's findings. */
    static ExpertSystemsReport of(List<Finding> findings) {
        List<String[]> rows = new ArrayList<>();
        addRows(rows, "", findings);
        return new ExpertSystemsReport(rows);
    }

    /**
     * A lint run's findings. DLProf writes one file per profile; when a run holds several profiles their rows
     * follow each other and each problem starts with {@code [profile] }.
     */
    static ExpertSystemsReport of(LintRun run) {
        List<String[]> rows = new ArrayList<>();
        boolean several = run.results().size() > 1;
        List<String> names = ProfileNames.stems(run.results());
        for (int i = 0; i < run.results().size(); i++) {
            addRows(rows, several ? "[" + names.get(i) + "] " : "", run.results().get(i).findings());
        }
        return new ExpertSystemsReport(rows);
    }

    private static void addRows(List<String[]> rows, String prefix, List<Finding> findings) {
        for (Finding f : FindingOrder.sorted(findings)) {
            rows.add(new String[]{prefix + nz(f.problem()), nz(f.recommendation())});
        }
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    static List<Column> columns() {
        return List.of(Column.quoted("Problem"), Column.quoted("Recommendation"));
    }

    @Override
    public void render(ReportWriter out) throws IOException {
        out.beginTable(TITLE, columns());
        for (String[] r : rows) out.row((Object[]) r);
        out.endTable();
    }
}
