package dlproflint.reporters.dlprof;

import java.io.IOException;
import java.util.List;

/**
 * Receives one DLProf report section by section and row by row, and renders it in one file format.
 * Rows are written as they arrive so that the iteration report streams (one row per kernel launch).
 */
interface ReportWriter {
    /** A titled list of name/value rows (the summary's System Config, Summary Report, Iterations). */
    void keyValueSection(String title, List<KeyValue> entries) throws IOException;

    /**
     * Starts a titled table. A table whose first header is empty ({@code ,GPU Time (ns),...}) is
     * keyed by its first cell (the summary's All Ops / All Kernels tables).
     */
    void beginTable(String title, List<Column> columns) throws IOException;

    /** One row of the current table, one value per column (null = no value). */
    void row(Object... values) throws IOException;

    void endTable() throws IOException;

    /** Completes the document and flushes; the underlying stream stays open. */
    void finish() throws IOException;
}
