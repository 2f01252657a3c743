package dlproflint.reporters.dlprof;

import dlproflint.reporters.SafeText;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * DLProf's CSV layout: each section is a title line, then (for tables) a header line, then rows;
 * sections are separated by one empty line; lines end with {@code \n} (also inside quoted multi-line
 * stack traces); the file ends with the last row's {@code \n}. Quotes inside quoted values are
 * doubled (RFC 4180).
 */
final class CsvReportWriter implements ReportWriter {
    private final Writer out;
    private List<Column> columns;
    private boolean firstSection = true;

    CsvReportWriter(OutputStream stream) {
        this.out = new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), 1 << 16);
    }

    @Override
    public void keyValueSection(String title, List<KeyValue> entries) throws IOException {
        startSection(title);
        for (KeyValue e : entries) {
            out.write(e.name());
            out.write(',');
            out.write(format(e.value(), e.type()));
            out.write('\n');
        }
    }

    @Override
    public void beginTable(String title, List<Column> columns) throws IOException {
        startSection(title);
        this.columns = List.copyOf(columns);
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) out.write(',');
            out.write(columns.get(i).header());
        }
        out.write('\n');
    }

    @Override
    public void row(Object... values) throws IOException {
        if (columns == null) throw new IllegalStateException("row outside a table");
        if (values.length != columns.size()) {
            throw new IllegalArgumentException("row has " + values.length + " values for " + columns.size() + " columns");
        }
        for (int i = 0; i < values.length; i++) {
            if (i > 0) out.write(',');
            Object v = values[i];
            CellType type = columns.get(i).type();
            // the two commonest cells are written without building intermediate strings (iteration report)
            if (type == CellType.QUOTED) writeQuoted(v == null ? "" : v.toString());
            else if (type == CellType.INT && v != null) out.write(v.toString());
            else out.write(format(v, type));
        }
        out.write('\n');
    }

    /** Text cells come from the profile: neutralised like every CSV cell we write ({@link SafeText#cell}). */
    private void writeQuoted(String raw) throws IOException {
        String s = SafeText.cell(raw);
        out.write('"');
        int from = 0;
        for (int q = s.indexOf('"'); q >= 0; q = s.indexOf('"', from)) {
            out.write(s, from, q + 1 - from);
            out.write('"');
            from = q + 1;
        }
        out.write(s, from, s.length() - from);
        out.write('"');
    }

    @Override
    public void endTable() {
        columns = null;
    }

    @Override
    public void finish() throws IOException {
        out.flush();
    }

    private void startSection(String title) throws IOException {
        if (!firstSection) out.write('\n');
        firstSection = false;
        out.write(title);
        out.write('\n');
    }

    static String format(Object value, CellType type) {
        switch (type) {
            case QUOTED:
                return quote(value == null ? "" : SafeText.cell(value.toString()));
            case BARE:
                return value == null ? "" : quoteIfNeeded(SafeText.cell(value.toString()), true);
            case LINE:
                return value == null ? "" : quoteIfNeeded(SafeText.cell(value.toString()), false);
            case INT:
                return value == null ? "" : value.toString();
            case DECIMAL:
                return value == null ? "" : Decimals.oneDecimal(((Number) value).doubleValue());
            case YES_NO:
                return value == null ? "" : ((Boolean) value ? "yes" : "no");
            default:
                throw new IllegalArgumentException(type.toString());
        }
    }

    static String quote(String s) {
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private static String quoteIfNeeded(String s, boolean commaNeedsQuotes) {
        boolean needs = s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0
                || (commaNeedsQuotes && s.indexOf(',') >= 0);
        return needs ? quote(s) : s;
    }
}
