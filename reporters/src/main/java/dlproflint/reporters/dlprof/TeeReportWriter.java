package dlproflint.reporters.dlprof;

import java.io.IOException;
import java.util.List;

/** Sends one report to several writers, so a report is computed (and streamed) once for all formats. */
final class TeeReportWriter implements ReportWriter {
    private final List<ReportWriter> writers;

    TeeReportWriter(List<ReportWriter> writers) {
        this.writers = List.copyOf(writers);
    }

    @Override
    public void keyValueSection(String title, List<KeyValue> entries) throws IOException {
        for (ReportWriter w : writers) w.keyValueSection(title, entries);
    }

    @Override
    public void beginTable(String title, List<Column> columns) throws IOException {
        for (ReportWriter w : writers) w.beginTable(title, columns);
    }

    @Override
    public void row(Object... values) throws IOException {
        for (ReportWriter w : writers) w.row(values);
    }

    @Override
    public void endTable() throws IOException {
        for (ReportWriter w : writers) w.endTable();
    }

    @Override
    public void finish() throws IOException {
        for (ReportWriter w : writers) w.finish();
    }
}
