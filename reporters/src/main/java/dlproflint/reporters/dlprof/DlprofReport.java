package dlproflint.reporters.dlprof;

import java.io.IOException;

/** One DLProf report, rendered section by section into a {@link ReportWriter}. */
interface DlprofReport {
    void render(ReportWriter out) throws IOException;
}
