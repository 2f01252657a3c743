package dlproflint.reporters.csv;

import dlproflint.findings.LintRun;
import dlproflint.reporters.Reporter;
import dlproflint.reporters.dlprof.DlprofReports;

import java.io.IOException;
import java.io.OutputStream;

/**
 * {@code --report expert-systems-csv}: DLProf's {@code dlprof_expert_systems.csv} of the lint run, written by the
 * DLProf-format report writer (the same one {@code dlprof-lint report --reports expert_systems} uses).
 */
public final class ExpertSystemsCsvReporter implements Reporter {
    public static final String FORMAT = "expert-systems-csv";

    @Override
    public void render(LintRun run, OutputStream out) throws IOException {
        DlprofReports.writeExpertSystemsCsv(run, out);
    }
}
